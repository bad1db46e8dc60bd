// The product mark and name, shared by the app header and the sign-in pages.
export function BrandMark() {
  return (
    <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" className="brand__mark">
      <rect x="1" y="1" width="18" height="18" rx="4" fill="currentColor" />
      <path d="M5 7h10M5 10h7M5 13h9" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}
