// Search Console's column names in the UI languages we expect (English, German, French, Spanish), and
// which file kind a header is. Names are compared loosely: case, accents, spacing and order do not count.
import type { GscFileKind } from './types';

export type ColumnKey =
  | 'url'
  | 'lastCrawled'
  | 'status'
  | 'property'
  | 'value'
  | 'date'
  | 'notIndexed'
  | 'indexed'
  | 'impressions'
  | 'affectedPages'
  | 'reason'
  | 'source'
  | 'validation'
  | 'trend'
  | 'pages'
  | 'sitemap'
  | 'type'
  | 'submitted'
  | 'lastRead'
  | 'discoveredPages'
  | 'discoveredVideos'
  | 'topPages'
  | 'clicks'
  | 'ctr'
  | 'position';

/**
 * English names are the ones in the fixtures (real exports) and Search Console's help pages; the
 * German, French and Spanish ones are our best reading of the localised UI, not checked against real
 * files (docs/search-console.md lists them), so a user's export may still need a new alias here.
 */
export const COLUMN_ALIASES: Record<ColumnKey, readonly string[]> = {
  url: ['URL', 'Page URL', 'Seiten-URL', 'URL de la page', 'URL de la página'],
  lastCrawled: ['Last crawled', 'Zuletzt gecrawlt', 'Dernière exploration', 'Último rastreo'],
  status: ['Status', 'Statut', 'État', 'Estado'],
  property: ['Property', 'Eigenschaft', 'Propriété', 'Propiedad'],
  value: ['Value', 'Wert', 'Valeur', 'Valor'],
  date: ['Date', 'Datum', 'Fecha'],
  notIndexed: [
    'Not indexed',
    'Nicht indexiert',
    'Non indexées',
    'Non indexée',
    'Sin indexar',
    'No indexadas',
  ],
  indexed: ['Indexed', 'Indexiert', 'Indexées', 'Indexée', 'Indexadas', 'Indexada'],
  impressions: ['Impressions', 'Impressionen', 'Impresiones'],
  affectedPages: ['Affected pages', 'Betroffene Seiten', 'Pages concernées', 'Páginas afectadas'],
  reason: ['Reason', 'Grund', 'Raison', 'Motif', 'Motivo'],
  source: ['Source', 'Quelle', 'Fuente', 'Origen'],
  validation: ['Validation', 'Validierung', 'Überprüfung', 'Validación'],
  trend: ['Trend', 'Tendance', 'Tendencia'],
  pages: ['Pages', 'Seiten', 'Páginas'],
  sitemap: ['Sitemap', 'Sitemaps', 'Sitemap URL'],
  type: ['Type', 'Typ', 'Tipo'],
  submitted: ['Submitted', 'Eingereicht', 'Envoyé', 'Envoyée', 'Date d’envoi', 'Enviado', 'Enviada'],
  lastRead: ['Last read', 'Zuletzt gelesen', 'Dernière lecture', 'Última lectura'],
  discoveredPages: ['Discovered pages', 'Erkannte Seiten', 'Pages détectées', 'Páginas descubiertas'],
  discoveredVideos: ['Discovered videos', 'Erkannte Videos', 'Vidéos détectées', 'Vídeos descubiertos'],
  topPages: ['Top pages', 'Page', 'Pages les plus populaires', 'Top-Seiten', 'Páginas principales'],
  clicks: ['Clicks', 'Klicks', 'Clics'],
  ctr: ['CTR'],
  position: ['Position', 'Posición'],
};

/** Lower case, no accents, apostrophes and runs of spaces/dashes/underscores unified. */
export function normaliseName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/[\s_\-\u00a0]+/g, ' ')
    .trim();
}

const KEY_OF = new Map<string, ColumnKey>();
for (const [key, names] of Object.entries(COLUMN_ALIASES) as [ColumnKey, readonly string[]][]) {
  for (const name of names) KEY_OF.set(normaliseName(name), key);
}

interface KindRule {
  kind: GscFileKind;
  required: readonly ColumnKey[];
  optional: readonly ColumnKey[];
  /** How the header looks, for the error naming what was expected. */
  example: string;
  /** A looser form of the rule before it, left out of that error. */
  isVariant?: boolean;
}

// Order matters only where one header could satisfy two rules: a chart with both counts is an
// overview chart, and "Pages" in the Performance export never comes with a Reason.
const KIND_RULES: readonly KindRule[] = [
  {
    kind: 'drilldown-table',
    required: ['url', 'lastCrawled'],
    optional: ['status'],
    example: 'URL,Last crawled',
  },
  { kind: 'metadata', required: ['property', 'value'], optional: [], example: 'Property,Value' },
  {
    kind: 'overview-chart',
    required: ['date', 'notIndexed', 'indexed'],
    optional: ['impressions'],
    example: 'Date,Not indexed,Indexed,Impressions',
  },
  {
    kind: 'drilldown-chart',
    required: ['date', 'affectedPages'],
    optional: [],
    example: 'Date,Affected pages',
  },
  {
    kind: 'issues',
    required: ['reason', 'pages'],
    optional: ['source', 'validation', 'trend'],
    example: 'Reason,Source,Validation,Pages',
  },
  {
    kind: 'sitemaps',
    required: ['sitemap', 'submitted'],
    optional: ['type', 'lastRead', 'status', 'discoveredPages', 'discoveredVideos'],
    example: 'Sitemap,Type,Submitted,Last read,Status,Discovered pages,Discovered videos',
  },
  {
    // Matched loosely: a Sitemaps report copied without its Submitted column is still one.
    kind: 'sitemaps',
    required: ['sitemap', 'discoveredPages'],
    optional: ['type', 'submitted', 'lastRead', 'status', 'discoveredVideos'],
    example: 'Sitemap,Discovered pages',
    isVariant: true,
  },
  {
    kind: 'performance-pages',
    required: ['topPages', 'clicks', 'impressions'],
    optional: ['ctr', 'position'],
    example: 'Top pages,Clicks,Impressions,CTR,Position',
  },
];

export const EXPECTED_HEADERS = KIND_RULES.filter((rule) => !rule.isVariant)
  .map((rule) => `'${rule.example}'`)
  .join(', ');

export interface HeaderPlan {
  kind: GscFileKind;
  /** Column index of each key the kind uses. */
  index: Partial<Record<ColumnKey, number>>;
  ignoredColumns: string[];
}

/** The file kind a header row is, or null when it is none of them. */
export function planHeader(header: readonly string[]): HeaderPlan | null {
  const keys = header.map((cell) => KEY_OF.get(normaliseName(cell)) ?? null);
  for (const rule of KIND_RULES) {
    if (!rule.required.every((key) => keys.includes(key))) continue;
    const wanted = new Set<ColumnKey>([...rule.required, ...rule.optional]);
    const index: Partial<Record<ColumnKey, number>> = {};
    const ignoredColumns: string[] = [];
    keys.forEach((key, i) => {
      // A repeated column keeps its first occurrence, as a spreadsheet's lookup would.
      if (key !== null && wanted.has(key) && index[key] === undefined) index[key] = i;
      else ignoredColumns.push(header[i] ?? '');
    });
    return { kind: rule.kind, index, ignoredColumns };
  }
  return null;
}
