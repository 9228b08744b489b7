/** A round avatar: the image when there is one, else the initials (issue 5: "name with avatar"). Decorative. */
import { useState } from 'react';
import classes from './avatar.module.css';

/** Initials for a name: first and last word (`Ann Marie Example` -> `AE`), `?` for none. */
export function initials(name: string | null | undefined): string {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return (parts.length > 1 ? `${parts[0]![0]}${parts.at(-1)![0]}` : (parts[0]?.slice(0, 2) ?? '?')).toUpperCase();
}

export function Avatar({ src, name, size = 28 }: { src: string | null | undefined; name: string | null | undefined; size?: number }) {
  const [broken, setBroken] = useState(false);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (src && !broken) return <img className={classes.avatar} src={src} alt="" style={style} onError={() => setBroken(true)} />;
  return (
    <span className={classes.avatar} style={style} aria-hidden="true">
      {initials(name)}
    </span>
  );
}
