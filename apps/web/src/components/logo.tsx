/** Tally mark: four strokes crossed by a fifth. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" role="img" aria-label="Tally logo">
      <rect width="32" height="32" rx="6" fill="#1864ab" />
      <g stroke="#fff" strokeWidth="2.5" strokeLinecap="round">
        <path d="M9 8v16M14 8v16M19 8v16M24 8v16M6 22l21-12" />
      </g>
    </svg>
  );
}
