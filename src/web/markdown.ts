import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

const markdown = new MarkdownIt({ html: false, linkify: true });

/**
 * A vendor's README as HTML that is safe to put in a page: Markdown without raw HTML, then sanitized
 * to an allow-list (no script, no event handlers, no javascript: links), links marked nofollow.
 */
export function renderReadme(source: string | null | undefined): string {
  if (!source) return '';
  const html = markdown.render(source.slice(0, 200_000));
  return sanitizeHtml(html, {
    allowedTags: sanitizeHtml.defaults.allowedTags.concat(['img', 'h1', 'h2']),
    allowedAttributes: { a: ['href', 'title', 'rel'], img: ['src', 'alt', 'title'], code: ['class'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['https'] },
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'nofollow noopener noreferrer' }) },
  });
}
