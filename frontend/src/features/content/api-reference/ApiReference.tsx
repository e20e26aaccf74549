import { Fragment, useState, type ReactNode } from 'react';
import type { OpenApiDocument, OpenApiOperation } from '@frametext/contracts/openapi';
import { SchemaView } from './SchemaView';
import { resolve, typeLine } from './schemaText';

export const OPENAPI_URL = '/api/openapi.json';

interface Entry {
  method: string;
  path: string;
  op: OpenApiOperation;
}

/** Operations grouped by tag, in the document's tag order, each group in the document's path order. */
export function operationsByTag(doc: OpenApiDocument): { tag: string; entries: Entry[] }[] {
  const entries = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
  return doc.tags.map(({ name }) => ({ tag: name, entries: entries.filter((e) => e.op.tags.includes(name)) })).filter((g) => g.entries.length > 0);
}

/** `inline code` in the description's sentences. */
function withCode(text: string): ReactNode[] {
  return text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>));
}

/** The whole reference from one OpenAPI document: an introduction, a contents list, and every operation. */
export function ApiReference({ doc }: { doc: OpenApiDocument }) {
  const groups = operationsByTag(doc);
  return (
    <>
      <div className="post-body">
        {doc.info.description
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line, i) => (
            <p key={i}>{withCode(line)}</p>
          ))}
        <p>
          The whole description, for programs and code generators: <a href={OPENAPI_URL}>{OPENAPI_URL}</a> (OpenAPI {doc.openapi}, version {doc.info.version}).
        </p>
      </div>
      <nav className="api-contents" aria-label="Endpoints">
        {groups.map(({ tag, entries }) => (
          <div key={tag}>
            <h2 className="api-contents__tag">{tag}</h2>
            <ul>
              {entries.map(({ method, path, op }) => (
                <li key={op.operationId}>
                  <a href={`#${op.operationId}`}>
                    <span className={`api-method api-method--${method.toLowerCase()}`}>{method}</span> <code className="api-path">{path}</code>
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      {groups.map(({ tag, entries }) => (
        <section key={tag} aria-label={tag}>
          <h2 className="api-group">{tag}</h2>
          {entries.map((entry) => (
            <OperationView key={entry.op.operationId} entry={entry} doc={doc} />
          ))}
        </section>
      ))}
    </>
  );
}

function OperationView({ entry, doc }: { entry: Entry; doc: OpenApiDocument }) {
  const { method, path, op } = entry;
  const body = op.requestBody && Object.entries(op.requestBody.content)[0];
  return (
    <article className="api-op" id={op.operationId} aria-labelledby={`${op.operationId}-title`}>
      <h3 className="api-op__title" id={`${op.operationId}-title`}>
        <span className={`api-method api-method--${method.toLowerCase()}`}>{method}</span> <code className="api-path">{path}</code>
      </h3>
      <p className="api-op__summary">{op.summary}</p>
      {op.description && <p>{withCode(op.description)}</p>}
      <p className="api-op__auth">{op.security.length > 0 ? 'Needs a token: Authorization: Bearer <token>.' : 'Public: no token needed.'}</p>

      {op.parameters && op.parameters.length > 0 && (
        <>
          <h4>Parameters</h4>
          <dl className="schema-fields">
            {op.parameters.map((p) => (
              <div className="schema-field" key={`${p.in}-${p.name}`}>
                <dt>
                  <code>{p.name}</code> <span className="schema-optional">in {p.in}</span> <span className={p.required ? 'schema-required' : 'schema-optional'}>{p.required ? 'required' : 'optional'}</span>
                </dt>
                <dd>
                  <span className="schema-type">{typeLine(p.schema, doc)}</span>
                  {p.description && <span className="schema-description"> {p.description}</span>}
                </dd>
              </div>
            ))}
          </dl>
        </>
      )}

      {body && (
        <>
          <h4>Request body</h4>
          <p>
            <code>{body[0]}</code>, <span className="schema-type">{typeLine(body[1].schema, doc)}</span>
          </p>
          <Disclosure label="Fields">
            <SchemaView schema={body[1].schema} doc={doc} />
          </Disclosure>
          {body[1].example !== undefined && (
            <>
              <p className="schema-note">Example:</p>
              <pre className="api-example">{JSON.stringify(body[1].example, null, 2)}</pre>
            </>
          )}
        </>
      )}

      <h4>Responses</h4>
      <ul className="api-responses">
        {Object.entries(op.responses).map(([status, response]) => {
          const json = response.content?.['application/json']?.schema;
          const other = response.content ? Object.keys(response.content).filter((type) => type !== 'application/json').join(', ') || undefined : undefined;
          const named = json ? resolve(json, doc).name : undefined;
          return (
            <li key={status} className="api-response">
              <p>
                <strong className={`api-status api-status--${status.charAt(0)}`}>{status === 'default' ? 'Other' : status}</strong> {response.description}
                {other && <span className="schema-note"> ({other})</span>}
                {response.headers &&
                  Object.entries(response.headers).map(([h, d]) => (
                    <span key={h} className="schema-note">
                      {' '}
                      <code>{h}</code>: {d.description}
                    </span>
                  ))}
              </p>
              {json && (
                <Disclosure label={named ?? 'Body'}>
                  <SchemaView schema={json} doc={doc} />
                </Disclosure>
              )}
            </li>
          );
        })}
      </ul>
    </article>
  );
}

/** A closed section whose inside is rendered once opened: the page stays light with every schema on it. */
function Disclosure({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="api-details" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{label}</summary>
      {open && children}
    </details>
  );
}
