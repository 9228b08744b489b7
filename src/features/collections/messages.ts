/**
 * English texts of the collections area added for issue 22 (Delete), one module for the i18n conversion (issue 23).
 */
export const collectionMessages = {
  noun: 'collection',
  links: 'removed from every product in it (the products stay)',
} as const;
