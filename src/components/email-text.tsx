/**
 * An e-mail address that never breaks inside a word (issue 34 point 8): a line may break only before the `@`, and a
 * part wider than its box is cut with an ellipsis (the whole address in the title). Used in lists and cards.
 */
import classes from './email-text.module.css';

/** Shows `email` whole, breakable only at its `@`. */
export function EmailText({ email }: { email: string | null | undefined }) {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at <= 0) return <span className={classes.part} title={email}>{email}</span>;
  return (
    <span className={classes.email} title={email}>
      <span className={classes.part}>{email.slice(0, at)}</span>
      <wbr />
      <span className={classes.part}>{email.slice(at)}</span>
    </span>
  );
}
