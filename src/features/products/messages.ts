/**
 * English texts of the products area added for issue 22 (Delete), one module for the i18n conversion (issue 23).
 */
export const productMessages = {
  noun: 'product',
  links: 'removed from its collections',
} as const;
