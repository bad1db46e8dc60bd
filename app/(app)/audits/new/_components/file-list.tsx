// The files chosen so far, each with its size and a remove button.
import { formatBytes } from '@/lib/core/format';
import styles from './file-list.module.css';

export function FileList({
  files,
  onRemove,
  label,
}: {
  files: readonly File[];
  onRemove: (index: number) => void;
  label: string;
}) {
  if (files.length === 0) return null;
  return (
    <ul className={styles.list} aria-label={label}>
      {files.map((file, index) => (
        <li key={`${file.name}-${file.size}-${file.lastModified}`}>
          <span className={`mono ${styles.name}`} title={file.name}>
            {file.name}
          </span>
          <span className={styles.size}>{formatBytes(file.size)}</span>
          <button
            type="button"
            className="button button--small"
            onClick={() => onRemove(index)}
            aria-label={`Remove ${file.name}`}
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
