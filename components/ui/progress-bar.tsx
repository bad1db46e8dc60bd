// A progress bar; without a value it shows an indeterminate animation.
export function ProgressBar({
  value,
  label,
  size = 'normal',
}: {
  /** 0..100, or null for indeterminate. */
  value: number | null;
  label: string;
  size?: 'normal' | 'small';
}) {
  const indeterminate = value === null;
  const classes = [
    'progress',
    indeterminate ? 'progress--indeterminate' : '',
    size === 'small' ? 'progress--small' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={classes}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={indeterminate ? undefined : value}
    >
      <div className="progress__bar" style={indeterminate ? undefined : { width: `${value}%` }} />
    </div>
  );
}
