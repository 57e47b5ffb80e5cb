/**
 * report.html: one self-contained file, readable offline (inline CSS and a little inline JS, nothing external).
 * Every piece of text from the report is HTML-escaped; the inline script is pinned by a CSP hash, so even a
 * missed escape could not run injected script.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { Exchange, Report, RuleResult, StatementJudgement, Summary } from '../model/result.js';
import type { Verdict } from '../model/outcome.js';
import { VERDICT_ORDER, compareSections, cut, formatDuration, groupBySection, regressionsOf, safeJson } from './sections.js';
import { CAUSE_WORDS, JUDGEMENTS, JUDGEMENT_WORDS, countCauses, countJudgements, statementWhy } from './statements.js';

/** Bodies longer than this (in UTF-8 bytes) are cut in the HTML; report.json keeps them whole. */
export const HTML_BODY_LIMIT = 8 * 1024;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values; drops NUL and other C0 controls but tab/LF/CR. */
export function escapeHtml(value: unknown): string {
  const s = value === undefined || value === null ? '' : String(value);
  // eslint-disable-next-line no-control-regex
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd');
}

const VERDICT_LABEL: Record<Verdict, string> = {
  passed: 'passed', failed: 'failed', non_strict: 'non-strict', informational: 'informational', skipped: 'skipped', errored: 'errored',
};

const CSS = `
:root{--passed:#1a7f37;--failed:#cf222e;--non_strict:#bf8700;--informational:#0969da;--skipped:#6e7781;--errored:#8250df;
--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--code:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--code:#151b23}}
*{box-sizing:border-box}
body{margin:0;padding:1rem 1.5rem 3rem;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
h1{font-size:1.4rem;margin:.2rem 0 .6rem}
h2{font-size:1.05rem;margin:0;display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--code);border:1px solid var(--line);border-radius:6px;padding:.5rem .7rem;margin:.3rem 0;overflow:auto;max-height:32rem;white-space:pre-wrap;word-break:break-all}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:0 0 1rem}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;word-break:break-all}
.badge{display:inline-block;min-width:6.5rem;text-align:center;border-radius:1rem;padding:0 .55rem;font-size:12px;font-weight:600;color:#fff}
.badge.small{min-width:0}
.passed{background:var(--passed)}.failed{background:var(--failed)}.non_strict{background:var(--non_strict)}
.informational{background:var(--informational)}.skipped{background:var(--skipped)}.errored{background:var(--errored)}
.controls{position:sticky;top:0;background:var(--bg);padding:.5rem 0;border-bottom:1px solid var(--line);display:flex;gap:.4rem;flex-wrap:wrap;align-items:center;z-index:1}
.controls button{cursor:pointer;border:2px solid transparent;border-radius:1rem;padding:.15rem .7rem;font-weight:600;color:#fff}
.controls button.off{opacity:.35}
.controls button.plain{background:var(--code);color:var(--fg);border-color:var(--line)}
.controls input{flex:1 1 16rem;padding:.3rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
section.sec{margin-top:1.2rem;border:1px solid var(--line);border-radius:8px;overflow:hidden}
section.sec>header{padding:.5rem .8rem;background:var(--code);border-bottom:1px solid var(--line)}
details.rule{border-top:1px solid var(--line)}details.rule:first-of-type{border-top:0}
details.rule>summary{cursor:pointer;padding:.35rem .8rem;display:flex;gap:.6rem;align-items:baseline;list-style-position:outside}
details.rule>summary .level{font-size:12px;color:var(--muted);width:3rem}
details.rule>summary code{color:var(--muted)}
details.rule>.body{padding:.3rem 1rem .8rem 2rem}
.flaky{font-size:11px;border:1px solid var(--non_strict);color:var(--non_strict);border-radius:4px;padding:0 .3rem}
h3{font-size:.9rem;margin:.7rem 0 .2rem}
ul.findings{margin:.2rem 0;padding-left:1.2rem}
details.ex{border:1px solid var(--line);border-radius:6px;margin:.35rem 0;padding:.2rem .6rem}
details.ex>summary{cursor:pointer}
.note{color:var(--muted);font-style:italic}
.error{color:var(--failed)}
button.copy{font-size:11px;cursor:pointer;background:var(--code);color:var(--fg);border:1px solid var(--line);border-radius:4px}
[hidden]{display:none!important}
section.first{margin:.6rem 0 1rem;border:2px solid var(--failed);border-radius:8px;padding:.4rem .9rem}
section.first.clean{border-color:var(--passed)}
section.first h2,section.statements h2{margin:.3rem 0}
section.first ul{margin:.2rem 0 .5rem;padding-left:1.2rem}
section.first li{margin:.15rem 0}
section.first .why{color:var(--muted)}
.warn{color:var(--failed);font-weight:600}
section.statements{margin:1rem 0}
section.statements table{border-collapse:collapse;margin:.3rem 0}
section.statements th,section.statements td{border-bottom:1px solid var(--line);padding:.2rem .5rem;text-align:left;vertical-align:top}
`;

const SCRIPT = `(function(){
var active=new Set(${JSON.stringify([...VERDICT_ORDER])});
var q=document.getElementById('q');
var rules=Array.prototype.slice.call(document.querySelectorAll('details.rule'));
var secs=Array.prototype.slice.call(document.querySelectorAll('section.sec'));
function apply(){
  var text=(q.value||'').trim().toLowerCase();
  rules.forEach(function(r){
    var ok=active.has(r.getAttribute('data-verdict'))&&(!text||r.getAttribute('data-text').indexOf(text)>=0);
    r.hidden=!ok;
  });
  secs.forEach(function(s){s.hidden=!s.querySelector('details.rule:not([hidden])');});
  var shown=rules.filter(function(r){return !r.hidden;}).length;
  document.getElementById('shown').textContent=shown+' of '+rules.length+' rules shown';
}
document.querySelectorAll('button[data-filter]').forEach(function(b){
  b.addEventListener('click',function(){
    var v=b.getAttribute('data-filter');
    if(active.has(v)){active.delete(v);b.classList.add('off');}else{active.add(v);b.classList.remove('off');}
    apply();
  });
});
document.getElementById('only-problems').addEventListener('click',function(){
  active=new Set(['failed','errored','non_strict']);
  document.querySelectorAll('button[data-filter]').forEach(function(b){b.classList.toggle('off',!active.has(b.getAttribute('data-filter')));});
  apply();
});
document.getElementById('all').addEventListener('click',function(){
  active=new Set(${JSON.stringify([...VERDICT_ORDER])});q.value='';
  document.querySelectorAll('button[data-filter]').forEach(function(b){b.classList.remove('off');});
  apply();
});
// The order of the rules inside each section: the spec's (as written), or the costliest first by requests or time.
document.getElementById('order').addEventListener('change',function(e){
  var key=e.target.value;
  secs.forEach(function(s){
    var list=Array.prototype.slice.call(s.querySelectorAll('details.rule'));
    list.sort(function(a,b){
      if(key==='spec')return Number(a.getAttribute('data-index'))-Number(b.getAttribute('data-index'));
      return Number(b.getAttribute('data-'+key))-Number(a.getAttribute('data-'+key));
    });
    list.forEach(function(r){s.appendChild(r);});
  });
});
document.getElementById('expand').addEventListener('click',function(){rules.forEach(function(r){if(!r.hidden)r.open=true;});});
document.getElementById('collapse').addEventListener('click',function(){rules.forEach(function(r){r.open=false;});});
q.addEventListener('input',apply);
document.addEventListener('click',function(e){
  var t=e.target;
  if(t&&t.classList&&t.classList.contains('copy')){
    var pre=t.nextElementSibling;
    if(pre&&navigator.clipboard)navigator.clipboard.writeText(pre.textContent||'');
  }
});
apply();
})();`;

const SCRIPT_HASH = createHash('sha256').update(SCRIPT, 'utf8').digest('base64');
const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; img-src data:; base-uri 'none'; form-action 'none'`;

export function renderHtml(report: Report): string {
  const out: string[] = [];
  const title = `${report.suite?.name ?? 'Conformance'} ${report.suite?.version ?? ''}`.trim();
  out.push(
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CSP)}">`,
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(`Conformance report — ${title}`)}</title>`,
    `<style>${CSS}</style></head><body>`,
  );
  out.push(renderHeader(report, title));
  // What needs attention first: a reader (and a CI link) lands on the regressions, failures and errors, not on passes.
  out.push(renderAttention(report));
  out.push('<div class="controls">');
  for (const v of VERDICT_ORDER) {
    out.push(`<button type="button" class="${v}" data-filter="${v}" title="show/hide ${v}">${escapeHtml(VERDICT_LABEL[v])} ${report.summary?.[v] ?? 0}</button>`);
  }
  out.push(
    '<button type="button" class="plain" id="only-problems">problems only</button>',
    '<button type="button" class="plain" id="all">all</button>',
    '<input id="q" type="search" placeholder="filter by id, title or section" aria-label="filter">',
    '<button type="button" class="plain" id="expand">expand</button>',
    '<button type="button" class="plain" id="collapse">collapse</button>',
    '<label class="note">order <select id="order" aria-label="order of the rules"><option value="spec">as in the spec</option><option value="requests">most requests first</option><option value="ms">longest first</option></select></label>',
    '<span id="shown" class="note"></span></div><main>',
  );
  let index = 0;
  for (const group of groupBySection(report.results ?? [])) {
    const requests = group.results.reduce((n, r) => n + (r.request_count ?? 0), 0);
    const ms = group.results.reduce((n, r) => n + (r.duration_ms ?? 0), 0);
    out.push(
      `<section class="sec" data-section="${escapeHtml(group.section)}"><header><h2>§${escapeHtml(group.section)}`,
      `<span>${group.results.length} rule${group.results.length === 1 ? '' : 's'} · ${requests} request${requests === 1 ? '' : 's'} · ${escapeHtml(formatDuration(ms))} of rule time</span>${countBadges(group.summary)}</h2></header>`,
    );
    for (const r of group.results) out.push(renderRule(r, index++));
    out.push('</section>');
  }
  out.push('</main>');
  if (report.statements?.length) out.push(renderStatements(report.statements));
  out.push(`<script>${SCRIPT}</script></body></html>\n`);
  return out.join('\n');
}

export async function writeHtmlReport(report: Report, path: string): Promise<void> {
  await writeFile(path, renderHtml(report), 'utf8');
}

function countBadges(summary: Summary): string {
  return VERDICT_ORDER.filter((v) => (summary[v] ?? 0) > 0)
    .map((v) => `<span class="badge small ${v}" title="${v}">${escapeHtml(VERDICT_LABEL[v])} ${summary[v]}</span>`)
    .join(' ');
}

function renderHeader(report: Report, title: string): string {
  const t = report.target;
  const rows: [string, string][] = [
    ['target', `${escapeHtml(t?.kind)}`],
    ['base URL', `<code>${escapeHtml(t?.base_url)}</code>`],
    ['chat URL', `<code>${escapeHtml(t?.chat_url)}</code>`],
  ];
  if (t?.auth_url) rows.push(['auth URL', `<code>${escapeHtml(t.auth_url)}</code>`]);
  if (t?.capabilities) rows.push(['capabilities', escapeHtml(t.capabilities.join(', ') || 'none')]);
  rows.push(['seed', `<code>${escapeHtml(report.seed)}</code>`]);
  const duration = Date.parse(report.finished_at) - Date.parse(report.started_at);
  rows.push(['started', escapeHtml(report.started_at)]);
  rows.push(['finished', `${escapeHtml(report.finished_at)}${Number.isFinite(duration) ? ` (${escapeHtml(formatDuration(duration))})` : ''}`]);
  if (report.request_count !== undefined) rows.push(['requests', escapeHtml(report.request_count)]);
  if (report.configuration) rows.push(['configuration', `<b>${escapeHtml(report.configuration.name)}</b>${report.configuration.title ? ` ${escapeHtml(report.configuration.title)}` : ''}`]);
  if (report.credentials) {
    rows.push(['access token', `${escapeHtml(report.credentials.access_token)} <span class="note">(credentials offered: ${escapeHtml(report.credentials.kinds.join(', ') || 'none')})</span>`]);
  }
  if (report.incomplete) {
    const i = report.interruption;
    rows.push(['incomplete', `<span class="warn">the run stopped before every selected rule ran</span>${i ? ` (${escapeHtml(i.signal)} at ${escapeHtml(i.at)}: ${i.not_run.length} not run, ${i.abandoned.length} abandoned)` : ''}`]);
  }
  if (report.not_selected?.length) rows.push(['not selected', `${report.not_selected.length} rules (--only/--exclude): not run, not counted`]);
  if (report.baseline) {
    const b = report.baseline;
    rows.push(['baseline', `${b.regressions.length} regression${b.regressions.length === 1 ? '' : 's'}, ${b.fixes.length} fixed, ${b.added.length} new rules`]);
  }
  if (report.options && Object.keys(report.options).length > 0) {
    rows.push(['options', Object.entries(report.options)
      .map(([k, v]) => `<code>${escapeHtml(k)}=${escapeHtml(typeof v === 'string' ? v : safeJson(v, 0))}</code>`).join(' ')]);
  }
  const total = report.results?.length ?? 0;
  return [
    `<header><h1>${escapeHtml(title)}</h1>`,
    `<dl class="meta">${rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}`,
    `<dt>summary</dt><dd>${total} rules ${countBadges(report.summary ?? ({} as Summary))}</dd></dl></header>`,
  ].join('\n');
}

/** The rules that need attention, linked to their details: regressions against the baseline, failures, unjudged. */
function renderAttention(report: Report): string {
  const results = report.results ?? [];
  const regressions = regressionsOf(report);
  const regressed = new Set(regressions.map((r) => r.id));
  const failed = results.filter((r) => r.status === 'failed' && !regressed.has(r.id));
  const unjudged = results.filter((r) => r.status === 'errored' || (r.status === 'skipped' && r.blocked_by !== undefined));
  const level = (r: RuleResult) => ({ must: 0, should: 1, info: 2 })[r.level] ?? 3;
  const ordered = (list: RuleResult[]) => [...list].sort((a, b) => level(a) - level(b) || compareSections(a.section, b.section));
  const item = (r: RuleResult) => `<li><a href="#rule-${escapeHtml(r.id)}"><code>${escapeHtml(r.id)}</code></a> <span class="note">${escapeHtml(r.level)} · §${escapeHtml(r.section)}</span> <span class="why">${escapeHtml(cut(r.detail ?? '', 240))}</span></li>`;
  const block = (heading: string, list: RuleResult[]) => (list.length === 0 ? '' : `<h2>${escapeHtml(heading)} (${list.length})</h2><ul>${ordered(list).map(item).join('')}</ul>`);
  const body = [
    block('Regressions against the baseline', regressions),
    block('Failed', failed),
    block('Errored or unjudged', unjudged),
  ].join('');
  if (body === '') return '<section class="first clean" id="attention"><h2>Nothing failed, errored or regressed</h2></section>';
  return `<section class="first" id="attention">${body}</section>`;
}

/** The statements of the spec and what this run judged of each: counts, then every statement in a table. */
function renderStatements(statements: readonly StatementJudgement[]): string {
  const counts = countJudgements(statements);
  const causes = countCauses(statements);
  const rank: Record<StatementJudgement['judgement'], number> = { none: 0, partial: 1, full: 2, untestable: 3 };
  const rows = [...statements].sort((a, b) => rank[a.judgement] - rank[b.judgement] || compareSections(a.section, b.section))
    .map((s) => `<tr data-judgement="${escapeHtml(s.judgement)}"><td><code>${escapeHtml(s.id)}</code></td><td>§${escapeHtml(s.section)}</td><td>${escapeHtml(JUDGEMENT_WORDS[s.judgement])}</td><td>${s.rules.map((id) => `<a href="#rule-${escapeHtml(id)}"><code>${escapeHtml(id)}</code></a>`).join(' ')}</td><td>${escapeHtml(statementWhy(s))}</td></tr>`);
  return [
    '<section class="statements" id="statements"><h2>Statements of the spec: what this run judged</h2>',
    `<p>${statements.length} statements: ${JUDGEMENTS.map((j) => `${counts[j]} ${escapeHtml(JUDGEMENT_WORDS[j])}`).join(', ')}.`,
    causes.length > 0 ? ` Not judged: ${causes.map(([c, n]) => `${n} ${escapeHtml(CAUSE_WORDS[c])}`).join('; ')}.` : '',
    '</p><details><summary>every statement (not judged and in part first)</summary>',
    '<table><thead><tr><th>statement</th><th>§</th><th>judgement</th><th>judged by</th><th>what was left, and why</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table></details></section>',
  ].join('\n');
}

function renderRule(r: RuleResult, index: number): string {
  const status = VERDICT_LABEL[r.status] ? r.status : 'errored';
  const searchable = `${r.id} ${r.title} §${r.section} ${r.level}`.toLowerCase();
  const parts: string[] = [
    `<details class="rule" id="rule-${escapeHtml(r.id)}" data-verdict="${status}" data-text="${escapeHtml(searchable)}" data-index="${index}" data-requests="${Number(r.request_count ?? 0)}" data-ms="${Number(r.duration_ms ?? 0)}">`,
    `<summary><span class="badge ${status}">${escapeHtml(VERDICT_LABEL[status])}</span><span class="level">${escapeHtml(r.level)}</span>`,
    `<code>${escapeHtml(r.id)}</code><span>${escapeHtml(r.title)}</span>${r.flaky ? '<span class="flaky" title="failed, then passed on an immediate re-run with the same seed">flaky</span>' : ''}</summary>`,
    '<div class="body">',
    `<h3>detail</h3><pre>${escapeHtml(r.detail)}</pre>`,
    `<div class="note">${escapeHtml(r.duration_ms)} ms${r.requires?.length ? ` · requires ${escapeHtml(r.requires.join(', '))}` : ''}${r.request_count !== undefined ? ` · ${escapeHtml(r.request_count)} request(s)` : ''}</div>`,
  ];
  if (r.reading) parts.push(`<h3>reading taken</h3><p>${escapeHtml(r.reading)}</p>`);
  if (r.findings?.length) {
    parts.push('<h3>findings</h3><ul class="findings">');
    for (const f of r.findings) {
      parts.push(`<li><span class="badge small ${escapeHtml(f.verdict)}">${escapeHtml(f.verdict)}</span> <code>${escapeHtml(f.check)}</code> ${escapeHtml(f.detail)}</li>`);
    }
    parts.push('</ul>');
  }
  if (r.property) {
    const p = r.property;
    parts.push(
      '<h3>property</h3>',
      `<div>seed <code>${escapeHtml(p.seed)}</code> · runs ${escapeHtml(p.runs)}${p.path !== undefined ? ` · path <code>${escapeHtml(p.path)}</code>` : ''}${p.shrinks !== undefined ? ` · ${escapeHtml(p.shrinks)} shrinks` : ''}</div>`,
    );
    if (p.counterexample !== undefined) parts.push(`<div>counterexample</div>${pre(safeJson(p.counterexample))}`);
    if (p.replay) parts.push(`<div>replay <button type="button" class="copy">copy</button><pre>${escapeHtml(p.replay)}</pre></div>`);
  }
  if (r.reproduction) {
    parts.push(`<h3>reproduction</h3><div><button type="button" class="copy">copy</button><pre>${escapeHtml(r.reproduction)}</pre></div>`);
  }
  const exchanges = r.exchanges ?? [];
  if (exchanges.length > 0) {
    const total = r.request_count ?? exchanges.length;
    parts.push(`<h3>exchanges${total > exchanges.length ? ` <span class="note">(${exchanges.length} of ${total} kept)</span>` : ''}</h3>`);
    exchanges.forEach((ex, i) => parts.push(renderExchange(ex, i)));
  }
  parts.push('</div></details>');
  return parts.join('');
}

function renderExchange(ex: Exchange, index: number): string {
  const req = ex.request;
  const res = ex.response;
  const outcome = res ? String(res.status) : ex.error ? 'no response' : '—';
  const parts: string[] = [
    `<details class="ex"><summary>#${index + 1} <code>${escapeHtml(req?.method)} ${escapeHtml(req?.url)}</code> → <b>${escapeHtml(outcome)}</b> <span class="note">${escapeHtml(ex.duration_ms)} ms · ${escapeHtml(ex.started_at)}</span></summary>`,
    `<div>request</div>${pre(headerLines(`${req?.method ?? ''} ${req?.url ?? ''}`, req?.headers))}`,
  ];
  if (req?.body !== undefined && req.body !== '') parts.push(body(req.body, req.headers));
  if (res) {
    parts.push(`<div>response</div>${pre(headerLines(`HTTP ${res.status}`, res.headers))}`);
    if (res.body !== undefined && res.body !== '') parts.push(body(res.body, res.headers));
  }
  if (ex.error) parts.push(`<div class="error">error: ${escapeHtml(ex.error)}</div>`);
  parts.push('</details>');
  return parts.join('');
}

function pre(text: string): string {
  return `<pre>${escapeHtml(text)}</pre>`;
}

function headerLines(first: string, headers: Record<string, string> | undefined): string {
  const lines = [first];
  for (const [k, v] of Object.entries(headers ?? {})) lines.push(`${k}: ${v}`);
  return lines.join('\n');
}

function body(text: string, headers: Record<string, string> | undefined): string {
  const raw = String(text);
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes > HTML_BODY_LIMIT) {
    const shown = Buffer.from(raw, 'utf8').subarray(0, HTML_BODY_LIMIT).toString('utf8').replace(/\ufffd$/, '');
    return `${pre(shown)}<div class="note">body cut: first ${HTML_BODY_LIMIT} of ${bytes} bytes shown (report.json has it whole)</div>`;
  }
  return pre(pretty(raw, headers));
}

/** Pretty-prints a JSON body (small ones only; the caller already checked the size). */
function pretty(text: string, headers: Record<string, string> | undefined): string {
  const type = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const looksJson = /json/i.test(type) || /^\s*[[{]/.test(text);
  if (!looksJson) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

