import nunjucks from 'nunjucks';
import { withoutControlCharacters } from '../platform/text/text-rules';

/**
 * The web app's templates, autoescaped, with terminal control sequences and control characters (tab and
 * line breaks aside) taken out of every page. Titles, descriptions, READMEs, vendor names and reviews are
 * vendors' text, some stored before the API refused such characters; harmless to a browser, but not to a
 * terminal that shows a saved or copied page. Doing it here covers every template, so none can forget it.
 */
export class PageViews extends nunjucks.Environment {
  constructor(directory: string) {
    super(new nunjucks.FileSystemLoader(directory), { autoescape: true, throwOnUndefined: false });
  }

  override render(name: string, context?: object): string;
  override render(name: string, context: object | undefined, callback: nunjucks.TemplateCallback<string>): void;
  override render(name: string, context?: object, callback?: nunjucks.TemplateCallback<string>): string | void {
    // Values first, whole sequences at a time, before escaping turns an ST's backslash into an entity;
    // then the page, for anything that did not come as a plain value.
    const values = cleaned(context) as object | undefined;
    if (callback)
      return super.render(name, values, (error, page) => callback(error, page === null ? null : withoutControlCharacters(page)));
    return withoutControlCharacters(super.render(name, values));
  }
}

/** Strings inside plain objects and arrays, cleaned; anything else (dates, functions, safe strings) as it is. */
function cleaned(value: unknown): unknown {
  if (typeof value === 'string') return withoutControlCharacters(value);
  if (Array.isArray(value)) return value.map(cleaned);
  if (value !== null && typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value);
    if (prototype === Object.prototype || prototype === null)
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cleaned(item)]));
  }
  return value;
}
