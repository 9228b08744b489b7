/**
 * A live preview of user-written HTML (issue 6: a product's or collection's `bodyHtml`) that can never run code:
 * the HTML is sanitized by DOMPurify (no scripts, no event handler attributes, no `javascript:` URLs) and shown in
 * a sandboxed frame (`sandbox=""`: no scripts, forms, popups or same-origin access, even if sanitizing missed
 * something) under a Content-Security-Policy that loads nothing but images and inline styles. The frame keeps the
 * HTML's styles and forms away from the console's page too. Imported only by lazily loaded drawers: DOMPurify is
 * not part of any first screen.
 */
import { useDebouncedValue } from '@mantine/hooks';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import classes from './html-preview.module.css';

const CSP = "default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline'";

/** The complete document the frame shows for `html`: DOMPurify's output under the CSP, with a readable base style. */
export function previewDocument(html: string): string {
  const clean = DOMPurify.sanitize(html);
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}"><style>body{margin:8px;font:14px/1.5 system-ui,sans-serif;color:#222;background:#fff}img{max-width:100%;height:auto}</style></head><body>${clean}</body></html>`;
}

/** The preview frame of `html`, named `label`; it follows typing after a 200 ms pause. */
export function HtmlPreview({ html, label }: { html: string; label: string }) {
  const [settled] = useDebouncedValue(html, 200);
  const document = useMemo(() => previewDocument(settled), [settled]);
  return <iframe title={label} sandbox="" srcDoc={document} className={classes.frame} />;
}
