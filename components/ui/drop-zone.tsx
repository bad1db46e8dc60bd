'use client';
// A file input with a drag-and-drop area. The real <input type="file"> keeps the label (for tests and
// assistive tech); the visible "choose" button opens it for keyboard and mouse users.
import { type DragEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { joinIds } from './aria';
import styles from './drop-zone.module.css';

export function DropZone({
  id,
  label,
  hint,
  accept,
  multiple = false,
  invalid = false,
  describedBy,
  chooseLabel,
  onFiles,
  children,
}: {
  id: string;
  label: string;
  hint: ReactNode;
  accept?: string;
  multiple?: boolean;
  invalid?: boolean;
  describedBy?: string;
  chooseLabel: string;
  onFiles: (files: File[]) => void;
  children?: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [isOver, setIsOver] = useState(false);
  const hintId = `${id}-hint`;

  // A file dropped just outside the zone would make the browser open it and lose the form.
  useEffect(() => {
    const guard = (event: globalThis.DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', guard);
    window.addEventListener('drop', guard);
    return () => {
      window.removeEventListener('dragover', guard);
      window.removeEventListener('drop', guard);
    };
  }, []);

  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setIsOver(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setIsOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
  };

  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: drop target only; the button and input are the accessible controls */}
      <div
        className={`${styles.zone}${isOver ? ` ${styles.active}` : ''}${invalid ? ` ${styles.invalid}` : ''}`}
        onDragOver={onDragOver}
        onDragEnter={onDragOver}
        onDragLeave={(event) => {
          // Moving over the zone's own children fires dragleave too; only leaving the zone counts.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setIsOver(false);
        }}
        onDrop={onDrop}
      >
        <svg
          className={styles.icon}
          aria-hidden="true"
          width="28"
          height="28"
          viewBox="0 0 24 24"
          fill="none"
        >
          <path
            d="M12 16V4m0 0l-4.5 4.5M12 4l4.5 4.5M4 15v3a2 2 0 002 2h12a2 2 0 002-2v-3"
            stroke="currentColor"
            strokeWidth="1.7"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <span>
          Drag and drop {multiple ? 'files' : 'a file'} here, or{' '}
          <button type="button" className="button button--link" onClick={() => input.current?.click()}>
            {chooseLabel}
          </button>
        </span>
        <span id={hintId} className="field__hint">
          {hint}
        </span>
        <input
          ref={input}
          id={id}
          type="file"
          className="visually-hidden"
          tabIndex={-1}
          accept={accept}
          multiple={multiple}
          aria-describedby={joinIds(hintId, describedBy)}
          aria-invalid={invalid || undefined}
          onChange={(event) => {
            const files = [...(event.currentTarget.files ?? [])];
            // Reset so choosing the same file again after removing it still fires a change.
            event.currentTarget.value = '';
            if (files.length > 0) onFiles(files);
          }}
        />
      </div>
      {children}
    </div>
  );
}
