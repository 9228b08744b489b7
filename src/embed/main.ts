/**
 * The public embed page (`/embed/:workspaceId`): its own entry with no admin code and no React, so it stays
 * small (issue 7 budget: 60 KB gzip). Lists the workspace's public posts from endpoint 14 without a key,
 * newest first, with `#post-<id>` anchors. The posts issue fills out its design.
 */
import { createApiClient } from '@/api/client';
import type { Post } from '@/api/posts';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string | null)[]) {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) if (child !== null) node.append(child);
  return node;
}

function renderPost(post: Post): HTMLElement {
  return element(
    'article',
    { id: `post-${post.id}`, className: 'post' },
    post.header ? element('h2', { textContent: post.header }) : null,
    post.text ? element('p', { textContent: post.text }) : null,
    element('p', { className: 'meta', textContent: `${new Date(post.publishedDate).toLocaleDateString()} · ${post.claps} claps` }),
  );
}

async function main() {
  const root = document.getElementById('root');
  if (!root) throw new Error('embed.html has no #root element');
  const workspaceId = decodeURIComponent(window.location.pathname.split('/')[2] ?? '');
  const status = element('p', { textContent: 'Loading…' });
  status.setAttribute('role', 'status');
  const main = element('main', {}, element('h1', { textContent: 'Posts' }), status);
  root.replaceChildren(main);
  try {
    const page = await createApiClient({ baseUrl: '/api' }).listWorkspacePosts(workspaceId, { limit: 30 });
    status.textContent = page.items.length ? '' : 'No posts yet.';
    main.append(...page.items.map(renderPost));
    if (window.location.hash) document.getElementById(window.location.hash.slice(1))?.scrollIntoView();
  } catch (error) {
    status.textContent = error instanceof Error ? error.message : String(error);
    status.setAttribute('role', 'alert');
  }
}

void main();
