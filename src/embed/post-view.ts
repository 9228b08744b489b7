/**
 * The rendering rules of one post, shared by the public embed page (`/embed/:workspaceId`) and the composer's
 * live preview in the console (issue 7), so the two cannot drift: the same DOM from `renderPost` and the same
 * CSS (post-view.css, imported here so every bundle that renders a post ships it).
 *
 * Framework-free and tiny: no React, no zod, no admin code. All text goes in through `textContent` (never as
 * HTML), and only absolute http(s) URLs become `href`/`src`, so a post's content cannot inject markup or script.
 */
import { formatLocale } from '@/i18n/format';
import { t } from '@/i18n/i18n';
import type { Post } from '@/api/posts';
import './post-view.css';

/** What a rendered post shows; everything but `id` is optional, so a half-written draft renders too. */
export type PostView = {
  id: string;
  header?: string | null;
  text?: string | null;
  imageUrl?: string | null;
  mediaImageUrls?: readonly string[] | null;
  ctaLink?: { url: string; title?: string | null; description?: string | null; imageUrl?: string | null } | null;
  button?: { text: string; url: string } | null;
  author?: { name: string; imageUrl?: string | null } | null;
  /** ISO time of publication; null shows `dateLabel` instead (a draft). */
  publishedDate?: string | null;
  claps?: number | null;
};

/** Options of `renderPost`. */
export type RenderOptions = {
  /** Level of the post's heading: 2 on the embed page (under its h1), 3 in the console's preview. Default 2. */
  headingLevel?: 2 | 3 | 4;
  /** Makes the date a `#post-<id>` link (the embed page). Default true. */
  permalink?: boolean;
  /** Text shown in place of the date when `publishedDate` is null, e.g. `Publishes now`. */
  dateLabel?: string;
  /** Locale for dates and numbers; default the language shown in the browser's region (src/i18n/format.ts). */
  locale?: string;
};

/** True for an absolute http(s) URL, the only kind a post may link to or load an image from. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string' || !/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    return new URL(value).protocol.startsWith('http');
  } catch {
    return false;
  }
}

/** The element id of a post on the embed page, the target of `postUrl`'s `#post-<id>` fragment. */
export function postAnchorId(postId: string): string {
  return `post-${postId}`;
}

type Child = Node | string | null | undefined | false;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child) node.append(child);
  return node;
}

function text<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, value: string): HTMLElementTagNameMap[K] {
  const node = el(tag, className);
  node.textContent = value;
  return node;
}

/** An image that hides itself when it cannot be loaded (a typo in a URL must not leave a broken icon). */
function image(src: string, alt: string, className: string): HTMLImageElement {
  const img = el('img', className);
  img.alt = alt;
  img.loading = 'lazy';
  img.decoding = 'async';
  img.referrerPolicy = 'no-referrer';
  img.addEventListener('error', () => img.classList.add('wsp-broken'));
  img.src = src;
  return img;
}

/** A link that leaves the page in a new tab (inside an iframe it must not navigate the frame). */
function outLink(href: string, className: string, ...children: Child[]): HTMLAnchorElement {
  const a = el('a', className, ...children);
  a.href = href;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  return a;
}

/** A small applause mark drawn inline (an emoji would depend on the reader's fonts). */
function clapIcon(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'wsp-post__claps-icon');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', 'M12 3.5l1.7 5 5.3.2-4.2 3.2 1.5 5.1L12 14l-4.3 3 1.5-5.1L5 8.7l5.3-.2z');
  svg.append(path);
  return svg;
}

const clean = (value: string | null | undefined) => (typeof value === 'string' ? value.trim() : '');

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** `1,234 claps`, `1 clap`. */
export function clapsLabel(claps: number, locale?: string): string {
  return t('embed.claps', { claps: new Intl.NumberFormat(locale ?? formatLocale()).format(claps), count: claps });
}

/** A post's date as the embed page shows it: `1 Jul 2026, 10:00` in the reader's locale and time zone. */
export function formatPostDate(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale ?? formatLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/**
 * Renders one post as an `<article class="wsp-post" id="post-<id>">`: author, date (a `#post-<id>` link on the
 * embed page), header, text (line breaks kept), main image, media images, call-to-action card, button, claps.
 * Parts without content are left out. Links open in a new tab.
 */
export function renderPost(post: PostView, options: RenderOptions = {}): HTMLElement {
  const { headingLevel = 2, permalink = true, dateLabel = '', locale } = options;
  const anchor = postAnchorId(post.id);
  const header = clean(post.header);
  const body = clean(post.text);
  const article = el('article', 'wsp-post');
  article.id = anchor;

  // Author and date.
  const authorName = clean(post.author?.name);
  const when = post.publishedDate ? formatPostDate(post.publishedDate, locale) : dateLabel;
  let dateNode: HTMLElement | null = null;
  if (when) {
    const time = text('time', 'wsp-post__date', when);
    if (post.publishedDate) time.dateTime = post.publishedDate;
    if (permalink && post.publishedDate) {
      dateNode = el('a', 'wsp-post__permalink', time);
      (dateNode as HTMLAnchorElement).href = `#${anchor}`;
    } else {
      dateNode = time;
    }
  }
  const avatar = isHttpUrl(post.author?.imageUrl) ? image(post.author.imageUrl, '', 'wsp-post__avatar') : null;
  if (authorName || dateNode) {
    article.append(el('div', 'wsp-post__head', avatar, el('div', 'wsp-post__byline', authorName ? text('span', 'wsp-post__author', authorName) : null, dateNode)));
  }

  if (header) {
    const heading = text(`h${headingLevel}` as 'h2', 'wsp-post__title', header);
    heading.id = `${anchor}-title`;
    article.setAttribute('aria-labelledby', heading.id);
    article.append(heading);
  }
  if (body) article.append(text('p', 'wsp-post__text', body));

  const alt = header || body.slice(0, 120);
  if (isHttpUrl(post.imageUrl)) article.append(image(post.imageUrl, alt, 'wsp-post__image'));
  const media = (post.mediaImageUrls ?? []).filter(isHttpUrl);
  if (media.length) {
    const list = el('ul', `wsp-post__media${media.length === 1 ? ' wsp-post__media--single' : ''}`);
    list.setAttribute('aria-label', t('embed.media'));
    media.forEach((src, index) => list.append(el('li', '', image(src, t('embed.imageOf', { index: index + 1, count: media.length }), 'wsp-post__media-image'))));
    article.append(list);
  }

  const cta = post.ctaLink;
  if (cta && isHttpUrl(cta.url)) {
    const title = clean(cta.title) || hostOf(cta.url);
    const description = clean(cta.description);
    article.append(
      outLink(
        cta.url,
        'wsp-post__cta',
        isHttpUrl(cta.imageUrl) ? image(cta.imageUrl, '', 'wsp-post__cta-image') : null,
        el('span', 'wsp-post__cta-body', text('strong', 'wsp-post__cta-title', title), description ? text('span', 'wsp-post__cta-description', description) : null, text('span', 'wsp-post__cta-host', hostOf(cta.url))),
      ),
    );
  }

  const button = post.button;
  if (button && clean(button.text) && isHttpUrl(button.url)) article.append(el('p', 'wsp-post__actions', outLink(button.url, 'wsp-post__button', clean(button.text))));

  if (typeof post.claps === 'number') {
    const claps = el('span', 'wsp-post__claps', clapIcon(), clapsLabel(post.claps, locale));
    article.append(el('div', 'wsp-post__foot', claps));
  }
  return article;
}

/** A listed post (endpoints 12 and 14) as `renderPost` takes it; the open fields of `ctaLink`/`author` are read defensively. */
export function toPostView(post: Post): PostView {
  const str = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    id: post.id,
    header: post.header,
    text: post.text,
    imageUrl: post.imageUrl,
    mediaImageUrls: post.mediaImageUrls,
    ctaLink: post.ctaLink ? { url: post.ctaLink.url, title: str(post.ctaLink.title), description: str(post.ctaLink.description), imageUrl: str(post.ctaLink.imageUrl) } : null,
    button: post.button,
    author: post.author ? { name: post.author.name, imageUrl: str(post.author.imageUrl) } : null,
    publishedDate: post.publishedDate,
    claps: post.claps,
  };
}
