'use client';
// A labelled text input that reports its value after the user pauses typing (or at once on Enter).
// It follows outside changes of `value` (a link, the back button) unless the user is typing in it.
import { useEffect, useId, useRef, useState } from 'react';

export function DebouncedInput({
  label,
  value,
  onCommit,
  delay = 350,
  type = 'text',
  placeholder,
  className = '',
  width,
}: {
  label: string;
  value: string;
  onCommit: (value: string) => void;
  delay?: number;
  type?: 'text' | 'search';
  placeholder?: string;
  className?: string;
  width?: string;
}) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const isEditing = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const commit = useRef(onCommit);
  commit.current = onCommit;

  useEffect(() => {
    if (!isEditing.current) setDraft(value);
  }, [value]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const flush = (next: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    isEditing.current = false;
    if (next.trim() !== value) commit.current(next.trim());
  };

  return (
    <div className={`field field--inline ${className}`} style={width ? { width } : undefined}>
      <label htmlFor={id} className="field__label field__label--small">
        {label}
      </label>
      <input
        id={id}
        type={type}
        className="input input--small"
        value={draft}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          const next = event.target.value;
          setDraft(next);
          isEditing.current = true;
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => flush(next), delay);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') flush(draft);
        }}
        onBlur={() => {
          if (timer.current) flush(draft);
          isEditing.current = false;
        }}
      />
    </div>
  );
}
