/**
 * A post rendered by the embed page's own rules (src/embed/post-view.ts) inside the console: the composer's
 * live preview and the public-posts panel use it, so what the console shows is what the public page shows.
 */
import { useEffect, useRef } from 'react';
import { type PostView, type RenderOptions, renderPost } from '@/embed/post-view';

/** Renders `post` with `renderPost` into a div, re-rendering when the post's content changes. */
export function RenderedPost({ post, options }: { post: PostView; options?: RenderOptions }) {
  const ref = useRef<HTMLDivElement>(null);
  const key = JSON.stringify([post, options]);
  useEffect(() => {
    ref.current?.replaceChildren(renderPost(post, options));
    // `key` stands for the content of `post` and `options`, which are new objects on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return <div ref={ref} />;
}
