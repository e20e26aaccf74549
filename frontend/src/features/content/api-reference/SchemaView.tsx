import type { JsonSchema, OpenApiDocument } from '@frametext/contracts/openapi';
import { fieldsOf, itemsOf, mapValuesOf, resolve, typeLine, variantsOf } from './schemaText';

interface Props {
  schema: JsonSchema;
  doc: OpenApiDocument;
  depth?: number;
}

/** Deeper than this, a schema is summarised by its type line only (our bodies stay well within it). */
const MAX_DEPTH = 8;

/** The inside of a schema as nested lists: an object's fields, a list's items, a choice's forms. Nothing for a plain value. */
export function SchemaView({ schema, doc, depth = 0 }: Props) {
  const { schema: s } = resolve(schema, doc);
  if (depth > MAX_DEPTH) return null;

  const variants = variantsOf(s);
  if (variants.length === 1) return <SchemaView schema={variants[0]!} doc={doc} depth={depth + 1} />;
  if (variants.length > 1) {
    return (
      <ol className="schema-variants">
        {variants.map((variant, i) => (
          <li key={i}>
            <p className="schema-variant-title">{typeof variant.title === 'string' ? variant.title : `Form ${i + 1}`}</p>
            <SchemaView schema={variant} doc={doc} depth={depth + 1} />
          </li>
        ))}
      </ol>
    );
  }

  const items = itemsOf(s);
  if (items) {
    const inner = <SchemaView schema={items} doc={doc} depth={depth + 1} />;
    return hasStructure(items, doc) ? (
      <div className="schema-nested">
        <p className="schema-note">Each item:</p>
        {inner}
      </div>
    ) : null;
  }

  const fields = fieldsOf(s);
  const values = mapValuesOf(s);
  if (fields.length === 0 && !values) return null;
  return (
    <div className="schema-nested">
      {fields.length > 0 && (
        <dl className="schema-fields">
          {fields.map((field) => (
            <div className="schema-field" key={field.name}>
              <dt>
                <code>{field.name}</code> <span className={field.required ? 'schema-required' : 'schema-optional'}>{field.required ? 'required' : 'optional'}</span>
              </dt>
              <dd>
                <span className="schema-type">{typeLine(field.schema, doc)}</span>
                {typeof field.schema.description === 'string' && <span className="schema-description"> {field.schema.description}</span>}
                {hasStructure(field.schema, doc) && <SchemaView schema={field.schema} doc={doc} depth={depth + 1} />}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {values && (
        <p className="schema-note">
          Any other key: <span className="schema-type">{typeLine(values, doc)}</span>
        </p>
      )}
      {values && hasStructure(values, doc) && <SchemaView schema={values} doc={doc} depth={depth + 1} />}
    </div>
  );
}

/** Whether a schema has an inside worth listing (fields, items with fields, several forms). */
function hasStructure(schema: JsonSchema, doc: OpenApiDocument): boolean {
  const { schema: s } = resolve(schema, doc);
  const variants = variantsOf(s);
  if (variants.length > 1) return true;
  if (variants.length === 1) return hasStructure(variants[0]!, doc);
  const items = itemsOf(s);
  if (items) return hasStructure(items, doc);
  return fieldsOf(s).length > 0 || Boolean(mapValuesOf(s) && hasStructure(mapValuesOf(s)!, doc));
}
