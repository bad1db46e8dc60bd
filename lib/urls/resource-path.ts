// File extensions of resources (images, styles, scripts, documents, media, fonts): a URL whose path ends in
// one of them is not an HTML page when nothing else (a content type) says what it is. One list for the
// reconciliation's SQL (lib/reconcile/sql.ts) and the spot-check's live reading (lib/spot-check/verdict.ts).
export const RESOURCE_EXTENSIONS =
  'webp|jpe?g|png|gif|svg|ico|bmp|avif|tiff?|css|js|mjs|map|json|xml|txt|pdf|docx?|xlsx?|pptx?|csv|zip|gz|rar|7z|mp3|mp4|m4a|webm|mov|avi|wav|ogg|woff2?|ttf|otf|eot';
