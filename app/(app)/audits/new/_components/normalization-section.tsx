// How sitemap and crawl URLs are matched: one radio per normalization profile, each with a one-line explanation.
import type { TAuditOptions } from '@/lib/audits/schema';

type Normalization = TAuditOptions['normalization'];

const NORMALIZATION_CHOICES = [
  {
    value: 'exact',
    title: 'Exact',
    description:
      'A sitemap URL and a crawled URL match only if they are written the same way (host case and #fragments aside).',
  },
  {
    value: 'lenient',
    title: 'Lenient',
    description: 'Treat http and https, trailing slashes and query strings as the same page.',
  },
] as const;

export function NormalizationSection({
  value,
  onChange,
}: {
  value: Normalization;
  onChange: (next: Normalization) => void;
}) {
  return (
    <section className="card" aria-labelledby="options-heading">
      <div className="card__header">
        <h2 id="options-heading">Matching</h2>
      </div>
      <div className="card__body form-section">
        <div className="fieldset">
          <span id="normalization-label" className="field__label">
            Normalization
          </span>
          <span id="normalization-hint" className="field__hint">
            How strictly sitemap URLs and crawled URLs must agree to count as the same page.
          </span>
          <div
            role="radiogroup"
            aria-labelledby="normalization-label"
            aria-describedby="normalization-hint"
            className="choice-group"
          >
            {NORMALIZATION_CHOICES.map((choice) => (
              <label key={choice.value} className="choice">
                <input
                  type="radio"
                  name="normalization"
                  value={choice.value}
                  checked={value === choice.value}
                  aria-describedby={`normalization-${choice.value}-desc`}
                  onChange={() => onChange(choice.value)}
                />
                <span className="choice__text">
                  <span className="choice__title">{choice.title}</span>
                  <span id={`normalization-${choice.value}-desc`} className="choice__desc">
                    {choice.description}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </div>
      </div>
    </section>
  );
}
