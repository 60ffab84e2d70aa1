/**
 * The viewer page's style sheet, inlined into the page. System fonts only:
 * the page fetches nothing.
 *
 * @module
 */

/** The page's CSS. */
export const PAGE_STYLE = `
:root { --c: #1d5fbf; --s: #17804a; --err: #c62828; --srv: #7b3fbf; --note: #b26a00; --raw: #666;
  --ses: #37474f; --line: #e3e6ea; --bg: #fbfbfc; --muted: #6b7280; color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: var(--bg); }
header { padding: 12px 18px 4px; }
h1 { font-size: 18px; margin: 0 0 6px; word-break: break-all; }
h2 { font-size: 14px; margin: 10px 0 6px; }
h3 { font-size: 13px; margin: 12px 0 4px; }
a { color: var(--c); }
code, pre, .chip, .ln, .t, .latl { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.muted { color: var(--muted); }
#glance dl { display: grid; grid-template-columns: max-content 1fr max-content 1fr max-content 1fr; gap: 2px 12px; margin: 0; }
#glance dt { color: var(--muted); }
#glance dd { margin: 0; overflow-wrap: anywhere; }
#stats { display: flex; flex-wrap: wrap; gap: 8px 28px; padding: 0 18px; }
#stats table { border-collapse: collapse; font-size: 12px; }
#stats th { text-align: left; font-weight: 600; color: var(--muted); padding: 2px 6px; border-bottom: 1px solid var(--line); }
#stats td { padding: 1px 6px; border-bottom: 1px solid var(--line); vertical-align: middle; }
#stats tbody tr { cursor: pointer; }
#stats tbody tr:hover { background: #eef3fb; }
#stats td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
#stats .stats { max-width: 100%; overflow-x: auto; }
#stats td.name { font-family: ui-monospace, Menlo, Consolas, monospace; }
.chart { display: block; }
.chart .axis { stroke: #d5d9de; }
.chart .iqr { fill: #c9dbf5; }
.chart .ticks line { stroke: var(--c); stroke-width: 1.2; }
#stats td.kind { color: var(--muted); }
#glance summary { cursor: pointer; }
#report { padding: 0 18px; }
.misses { margin: 4px 0; padding-left: 18px; }
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 11px; font-weight: 600; color: #fff; line-height: 17px; }
.badge.played { background: var(--s); } .badge.inexact { background: var(--note); }
.badge.repeated { background: var(--srv); } .badge.never { background: #9aa0a6; } .badge.miss { background: var(--err); }
#controls { display: flex; gap: 10px; align-items: center; padding: 8px 18px; flex-wrap: wrap; background: var(--bg); border-top: 1px solid var(--line); }
#controls input { width: 260px; padding: 4px 8px; font: inherit; }
#controls select { padding: 3px 4px; font: inherit; max-width: 220px; }
.legend { display: flex; gap: 8px; flex-wrap: wrap; }
#main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(280px, 32%); gap: 0; height: calc(100vh - 90px); min-height: 420px; border-top: 1px solid var(--line); }
#tl { overflow-y: auto; position: relative; outline: none; background: #fff; }
#tlhead, .row { display: grid; grid-template-columns: 58px 76px 64px minmax(0, 1fr) minmax(0, 1fr) 130px 86px; align-items: center; column-gap: 6px; padding: 0 8px; }
#tlhead { position: sticky; top: 0; z-index: 1; background: #f3f4f6; height: 24px; font-weight: 600; color: var(--muted); border-bottom: 1px solid var(--line); }
#spacer { position: relative; }
#rows { position: absolute; left: 0; right: 0; top: 0; will-change: transform; }
.row { height: 26px; border-bottom: 1px solid #f1f2f4; cursor: pointer; white-space: nowrap; }
.row:hover { background: #f6f8fb; }
.row.sel { background: #e3edfb; }
.row.hl { background: #fff6d6; }
.ln { color: var(--muted); text-decoration: none; text-align: right; }
.t { color: var(--muted); text-align: right; font-size: 12px; white-space: nowrap; }
.ses { color: var(--muted); overflow: hidden; text-overflow: ellipsis; font-size: 12px; }
.lane { overflow: hidden; text-overflow: ellipsis; min-width: 0; }
.lane.c { border-right: 2px solid var(--line); padding-right: 6px; text-align: right; }
.lane.both { grid-column: 4 / span 2; text-align: center; }
.one-session #tlhead, .one-session .row { grid-template-columns: 58px 76px minmax(0, 1fr) minmax(0, 1fr) 130px 86px; }
.one-session .ses { display: none; }
.one-session .lane.both { grid-column: 3 / span 2; }
.no-report #tlhead, .no-report .row { grid-template-columns: 58px 76px 64px minmax(0, 1fr) minmax(0, 1fr) 120px; }
.no-report.one-session #tlhead, .no-report.one-session .row { grid-template-columns: 58px 76px minmax(0, 1fr) minmax(0, 1fr) 120px; }
.no-report .st { display: none; }
.chip { display: inline-block; padding: 0 7px; border: 1px solid; border-radius: 3px; font-size: 12px; line-height: 19px; max-width: 100%; overflow: hidden; text-overflow: ellipsis; vertical-align: middle; }
.chip i { color: var(--muted); font-style: normal; font-size: 11px; }
.chip.request { color: var(--c); border-color: var(--c); background: #edf3fc; }
.chip.answer { color: var(--s); border-color: var(--s); background: #eaf6ef; }
.chip.error { color: var(--err); border-color: var(--err); background: #fdecec; }
.chip.server-request { color: #fff; border-color: var(--srv); background: var(--srv); }
.chip.server-request i { color: #e6d8f6; }
.chip.notification { color: var(--note); border: 1px dashed var(--note); border-radius: 10px; background: #fff8ec; }
.chip.raw { color: var(--raw); border-style: dotted; border-radius: 0; background: #f5f5f5; }
.chip.http { color: var(--muted); border-color: #d0d4d9; font-size: 11px; }
.chip.batch { color: var(--c); border-style: double; border-width: 3px; }
.chip.session { color: #fff; background: var(--ses); border-color: var(--ses); border-radius: 10px; }
.chip.invalid { color: var(--err); border-style: dashed; }
.lane.both .chip { min-width: 60%; }
.pairlink { font-size: 11px; text-decoration: none; }
.unanswered { font-size: 11px; color: var(--err); }
.lat { position: relative; height: 16px; background: #f6f7f9; border-radius: 2px; overflow: hidden; }
.bar { position: absolute; left: 0; top: 0; bottom: 0; background: #9dbbe6; }
.k-server-request .bar { background: #c6a8e6; }
.latl { position: absolute; left: 4px; top: 0; font-size: 11px; line-height: 16px; color: #1f2328; white-space: nowrap; }
#detail { overflow: auto; padding: 8px 14px 24px; border-left: 1px solid var(--line); background: #fff; }
#detail:empty::before { content: "Click a frame to see it here."; color: var(--muted); }
.dhead { padding: 4px 0 6px; border-bottom: 1px solid var(--line); }
pre.json { margin: 0; padding: 8px; background: #f7f8fa; border: 1px solid var(--line); border-radius: 4px; white-space: pre-wrap; word-break: break-word; font-size: 12px; }
.json .key { color: #953800; } .json .str { color: #0a3069; } .json .num { color: #0550ae; }
.json .bool, .json .null { color: #8250df; }
/* Narrow windows: the glance in two columns of pairs; the frame below the timeline, and only once one is opened. */
@media (max-width: 999px) {
  #glance dl { grid-template-columns: max-content 1fr max-content 1fr; }
  #main { grid-template-columns: minmax(0, 1fr); grid-template-rows: minmax(0, 3fr) minmax(0, 2fr); }
  body:not(.has-detail) #main { grid-template-rows: minmax(0, 1fr); }
  body:not(.has-detail) #detail { display: none; }
  #detail { border-left: 0; border-top: 2px solid var(--line); }
}
footer { padding: 6px 18px; color: var(--muted); font-size: 11px; }
`;
