/**
 * What `conformance compare` writes: compare.json (src/compare/types.ts) and compare.html, one self-contained page a
 * person reads: the verdict changes first, then per endpoint and per rule what differs, how often, and an example with
 * both answers side by side (masked), the differences that change a verdict or lie in a broken rule before those the
 * spec allows (kept apart), then the noise. Every text is escaped and the inline script pinned by a CSP hash, as in
 * report.html.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CLASS_MEANING, DIFFERENCE_CLASSES, type AnswerSide, type ComparisonReport, type Difference } from '../compare/types.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
import { escapeHtml } from './html.js';

const CSS = `
:root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--code:#f6f8fa;--diff:#cf222e;--noise:#6e7781}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--code:#151b23}}
*{box-sizing:border-box}
body{margin:0;padding:1rem 1.5rem 3rem;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
h1{font-size:1.4rem;margin:.2rem 0 .6rem}h2{font-size:1.1rem;margin:1.4rem 0 .4rem}h3{font-size:.95rem;margin:1rem 0 .3rem}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--code);border:1px solid var(--line);border-radius:6px;padding:.4rem .6rem;margin:.2rem 0;overflow:auto;max-height:20rem;white-space:pre-wrap;word-break:break-all}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:0 0 1rem}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;word-break:break-all}
table{border-collapse:collapse;width:100%;margin:.3rem 0}
th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:var(--code)}
.cls{display:inline-block;border-radius:1rem;padding:0 .5rem;font-size:12px;font-weight:600;color:#fff;background:var(--diff)}
.noise .cls{background:var(--noise)}
.controls{position:sticky;top:0;background:var(--bg);padding:.5rem 0;border-bottom:1px solid var(--line);display:flex;gap:.4rem;flex-wrap:wrap;align-items:center;z-index:1}
.controls button{cursor:pointer;border:1px solid var(--line);border-radius:1rem;padding:.1rem .6rem;background:var(--code);color:var(--fg)}
.controls button.off{opacity:.35}
.controls input{flex:1 1 16rem;padding:.3rem .6rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:.6rem}
.sides h4{margin:.2rem 0;font-size:.85rem;color:var(--muted)}
.none{color:var(--muted);font-style:italic}
.standing{display:inline-block;margin-left:.3rem;font-size:11px;color:var(--muted)}
tr.diff[data-standing="changes a verdict"] .standing,#verdict-changes .to{color:var(--diff);font-weight:600}
.ok{font-weight:600}
[hidden]{display:none!important}
`;

const SCRIPT = `(function(){
var off=new Set();
var q=document.getElementById('q');
var rows=Array.prototype.slice.call(document.querySelectorAll('tr.diff'));
function apply(){
  var text=(q.value||'').trim().toLowerCase();
  var shown=0;
  rows.forEach(function(r){
    var ok=!off.has(r.getAttribute('data-class'))&&(!text||r.getAttribute('data-text').indexOf(text)>=0);
    r.hidden=!ok;
    var ex=r.nextElementSibling;
    if(ex&&ex.classList.contains('example'))ex.hidden=!ok;
    if(ok)shown++;
  });
  document.getElementById('shown').textContent=shown+' of '+rows.length+' differences shown';
}
document.querySelectorAll('button[data-class]').forEach(function(b){
  b.addEventListener('click',function(){
    var c=b.getAttribute('data-class');
    if(off.has(c)){off.delete(c);b.classList.remove('off');}else{off.add(c);b.classList.add('off');}
    apply();
  });
});
q.addEventListener('input',apply);
apply();
})();`;

const SCRIPT_HASH = createHash('sha256').update(SCRIPT, 'utf8').digest('base64');
const CSP = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${SCRIPT_HASH}'; img-src data:; base-uri 'none'; form-action 'none'`;

function sideHtml(title: string, s: AnswerSide): string {
  const rows = [
    `<h4>${escapeHtml(title)}</h4>`,
    `<div><code>${escapeHtml(s.request)}</code></div>`,
    s.status !== undefined ? `<div>status <code>${escapeHtml(s.status)}</code>${s.content_type ? ` · <code>${escapeHtml(s.content_type)}</code>` : ''}</div>` : '',
    s.error ? `<div class="none">no answer: ${escapeHtml(s.error)}</div>` : '',
    `<div>here: <code class="value">${escapeHtml(s.value)}</code></div>`,
    s.body ? `<pre>${escapeHtml(s.body)}</pre>` : '',
  ];
  return `<div class="side">${rows.join('')}</div>`;
}

function differenceRows(d: Difference): string {
  const text = `${d.rule} ${d.endpoint} ${d.class} ${d.place} ${d.what}`.toLowerCase();
  return [
    `<tr class="diff" data-class="${escapeHtml(d.class)}" data-standing="${escapeHtml(d.standing)}" data-text="${escapeHtml(text)}">`,
    `<td><code>${escapeHtml(d.endpoint)}</code></td><td><span class="cls">${escapeHtml(d.class)}</span><span class="standing">${escapeHtml(d.standing)}</span></td>`,
    `<td><code>${escapeHtml(d.place)}</code></td><td>${escapeHtml(d.what)}</td><td>${d.count} of ${d.of}</td></tr>`,
    `<tr class="example"><td colspan="5"><details><summary>example</summary><div class="sides">`,
    sideHtml('primary', d.primary), sideHtml('candidate', d.candidate),
    '</div></details></td></tr>',
  ].join('');
}

export function renderComparisonHtml(c: ComparisonReport): string {
  const out: string[] = [];
  const title = `Comparison: ${c.primary.label} → ${c.candidate.label}`;
  out.push(
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CSP)}">`,
    '<meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${CSS}</style></head><body>`,
    `<header><h1>${escapeHtml(title)}</h1><dl class="meta">`,
    `<dt>primary</dt><dd>${escapeHtml(c.primary.label)} <code>${escapeHtml(c.primary.base_url)}</code></dd>`,
    `<dt>candidate</dt><dd>${escapeHtml(c.candidate.label)} <code>${escapeHtml(c.candidate.base_url)}</code></dd>`,
    `<dt>secondary</dt><dd>${escapeHtml(c.secondary.label)} (what differs between primary and secondary is noise)</dd>`,
    `<dt>seed</dt><dd><code>${escapeHtml(c.seed)}</code></dd>`,
    `<dt>options</dt><dd>${Object.entries(c.options).map(([k, v]) => `<code>${escapeHtml(k)}=${escapeHtml(typeof v === 'string' ? v : JSON.stringify(v))}</code>`).join(' ')}</dd>`,
    `<dt>started</dt><dd>${escapeHtml(c.started_at)}</dd><dt>finished</dt><dd>${escapeHtml(c.finished_at)}</dd>`,
    `<dt>compared</dt><dd>${c.summary.rules_compared} rules, ${c.summary.exchanges_compared} exchanges</dd>`,
    `<dt>summary</dt><dd id="summary">${c.summary.differences === 0 ? '<span class="ok">no differences</span>' : plural(c.summary.differences, 'difference')}, ${plural(c.summary.noise_places, 'noise place')}; `
      + `${plural(c.summary.verdict_changes, 'verdict change')}, ${c.summary.by_standing['allowed by the spec']} allowed by the spec</dd>`,
    '</dl></header>',
  );
  out.push('<div class="controls">');
  for (const cls of DIFFERENCE_CLASSES) {
    out.push(`<button type="button" data-class="${cls}" title="${escapeHtml(CLASS_MEANING[cls])}">${cls} ${c.summary.by_class[cls]}</button>`);
  }
  out.push('<input id="q" type="search" placeholder="filter by rule, endpoint or place" aria-label="filter"><span id="shown" class="none"></span></div><main>');

  // A gate's reader comes for this: which rules now decide otherwise.
  const changes = c.differences.filter((d) => d.class === 'verdict');
  out.push(`<h2 id="verdicts">Verdict changes</h2>`);
  if (changes.length === 0) out.push('<p class="none" id="no-verdict-changes">No rule came out with another verdict.</p>');
  else {
    out.push('<table id="verdict-changes"><thead><tr><th>rule</th><th>primary</th><th>candidate</th><th>why, on each side</th></tr></thead><tbody>');
    for (const d of changes) {
      out.push(`<tr><td><code>${escapeHtml(d.rule)}</code></td><td>${escapeHtml(d.verdicts.primary)}</td><td class="to">${escapeHtml(d.verdicts.candidate)}</td>`
        + `<td><div><code>${escapeHtml(d.primary.value)}</code></div><div><code>${escapeHtml(d.candidate.value)}</code></div></td></tr>`);
    }
    out.push('</tbody></table>');
  }

  out.push('<h2>By endpoint</h2>');
  if (c.by_endpoint.length === 0) out.push('<p class="none">No endpoint answered differently.</p>');
  else {
    out.push('<table id="endpoints"><thead><tr><th>endpoint</th><th>differences</th><th>classes</th><th>rules</th></tr></thead><tbody>');
    for (const e of c.by_endpoint) {
      out.push(`<tr><td><code>${escapeHtml(e.endpoint)}</code></td><td>${e.differences}</td><td>${e.classes.map((x) => `<span class="cls">${escapeHtml(x)}</span>`).join(' ')}</td><td>${e.rules.map((r) => `<code>${escapeHtml(r)}</code>`).join(' ')}</td></tr>`);
    }
    out.push('</tbody></table>');
  }

  const ruleSections = (differences: readonly Difference[]) => {
    const byRule = new Map<string, Difference[]>();
    for (const d of differences) byRule.set(d.rule, [...(byRule.get(d.rule) ?? []), d]);
    for (const [rule, list] of byRule) {
      out.push(`<section class="rule" data-rule="${escapeHtml(rule)}"><h3><code>${escapeHtml(rule)}</code> <span class="standing">${escapeHtml(list[0]!.verdicts.primary)} → ${escapeHtml(list[0]!.verdicts.candidate)}</span></h3>`,
        '<table><thead><tr><th>endpoint</th><th>class</th><th>where</th><th>what differs</th><th>how often</th></tr></thead><tbody>',
        ...list.map(differenceRows), '</tbody></table></section>');
    }
  };
  const judged = c.differences.filter((d) => d.standing !== 'allowed by the spec');
  const allowed = c.differences.filter((d) => d.standing === 'allowed by the spec');
  out.push('<h2 id="by-rule">By rule: what changes a verdict or lies in a broken rule</h2>');
  if (c.differences.length === 0) out.push('<p class="none">Every rule got the same answers from both servers, noise aside.</p>');
  else if (judged.length === 0) out.push('<p class="none" id="none-judged">No difference changes a verdict or lies in a rule either side breaks.</p>');
  ruleSections(judged);
  out.push('<h2 id="allowed">Allowed by the spec</h2><p class="none">Both answers satisfy every rule that judges them (the rule passed, or only recorded, on both sides): order, ids, timing, optional members. <code>--fail-on any</code> fails on these too; a list of classes does not.</p>');
  if (allowed.length === 0) out.push('<p class="none">None.</p>');
  out.push('<div id="allowed-differences">');
  ruleSections(allowed);
  out.push('</div>');

  out.push('<h2>Noise</h2><p class="none">Places that differed between the primary and the secondary run, or where the two calls paired were not sent the same input: not findings. Members the kit names as varying by nature are never compared by value.</p>');
  out.push(`<ul id="named">${Object.entries(c.summary.named_noise).map(([name, n]) => `<li>${escapeHtml(name)}: ${n} value${n === 1 ? '' : 's'} not compared</li>`).join('')}</ul>`);
  if (c.noise.length > 0) {
    out.push('<table id="noise" class="noise"><thead><tr><th>rule</th><th>endpoint</th><th>class</th><th>where</th><th>why</th><th>times</th><th>primary</th><th>secondary, or candidate</th></tr></thead><tbody>');
    for (const n of c.noise) {
      out.push(`<tr><td><code>${escapeHtml(n.rule)}</code></td><td><code>${escapeHtml(n.endpoint)}</code></td><td><span class="cls">${escapeHtml(n.class)}</span></td><td><code>${escapeHtml(n.place)}</code></td><td>${n.source === 'secondary' ? 'differed in the secondary run' : 'not sent the same input'}</td><td>${n.count}</td><td><code>${escapeHtml(n.example.primary)}</code></td><td><code>${escapeHtml(n.example.other)}</code></td></tr>`);
    }
    out.push('</tbody></table>');
  } else out.push('<p class="none" id="no-noise">The secondary run answered like the primary everywhere.</p>');
  if (c.not_paired.length > 0) {
    out.push('<h2>Run on one side only</h2><table id="not-paired"><thead><tr><th>rule</th><th>primary</th><th>candidate</th></tr></thead><tbody>');
    for (const n of c.not_paired) out.push(`<tr><td><code>${escapeHtml(n.rule)}</code></td><td>${escapeHtml(n.primary)}</td><td>${escapeHtml(n.candidate)}</td></tr>`);
    out.push('</tbody></table>');
  }
  out.push(`</main><script>${SCRIPT}</script></body></html>\n`);
  return out.join('\n');
}

export interface WrittenComparison {
  readonly json: string;
  readonly html: string;
}

export async function writeComparisonReports(c: ComparisonReport, outDir: string): Promise<WrittenComparison> {
  const dir = resolve(outDir);
  await mkdir(dir, { recursive: true });
  const written = { json: join(dir, 'compare.json'), html: join(dir, 'compare.html') };
  await Promise.all([writeFile(written.json, `${JSON.stringify(c, null, 2)}\n`, 'utf8'), writeFile(written.html, renderComparisonHtml(c), 'utf8')]);
  return written;
}
