//! What `cargo xtask schema` prints about the manifest as a whole: its top-level fields, the
//! assumptions and their alternative readings, `explain`, and the quotes a caption may hold.
//! The fields themselves are declared in `mod.rs`; this is their one-page description.

use super::kinds::{opt, req, FieldType::*, KindDoc};

/// The parts of a manifest beside runs, panels, metrics, checks and tables.
pub const MANIFEST_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "manifest",
        doc: "one figure or table: experiments/<doc>/<name>.yaml",
        fields: &[
            req("id", Text, "", "<doc>/<name>, the path under experiments/ without .yaml"),
            req("kind", Text, "", "figure | table"),
            req("source", Other, "", "{document, number, caption, lines} (see source)"),
            req("content", Text, "", "what the figure shows: simulation, analytic, table, ..."),
            req(
                "status",
                Text,
                "",
                "reproduced | partial | pending | not-reproducible (with `reason` unless reproduced)",
            ),
            opt("reason", Text, "", "why the status is not reproduced"),
            opt(
                "not_built",
                List,
                "",
                "[\"what of the source is not built, Lnnn\", ...]: partial at best",
            ),
            opt("related", List, "", "[{id, relation}]: uses-run-of, ..."),
            opt("assumptions", List, "", "every choice the source does not make (see assumption)"),
            opt("runs", List, "", "see Runs"),
            opt("layout", Other, "", "see Figures"),
            opt("panels", List, "", "see Figures"),
            opt("metrics", List, "", "see Metrics"),
            opt("find", List, "", "where a metric reaches a level over one parameter (see find)"),
            opt("fit", List, "", "run parameters fitted to targets by least squares (see fit)"),
            opt("checks", List, "", "see Checks"),
            opt("table", Other, "", "see Tables"),
        ],
        example: "{id: followup/fig1, kind: figure, source: {document: followup, number: \"1\", caption: \"...\"}, content: simulation, status: reproduced}",
    },
    KindDoc {
        name: "source",
        doc: "where the figure is printed; a document without a text (source: none) cites no lines",
        fields: &[
            req("document", Text, "", "the folder under experiments/"),
            req("number", Text, "", "as printed: \"1.7\", \"6(a)\""),
            req(
                "caption",
                Text,
                "",
                "the caption; may quote (see quotes): filled in every output at render time",
            ),
            opt("lines", List, "", "[caption line, ...] seed lines (required with a source text)"),
            opt("catalog", Text, "", "the catalog note it follows"),
        ],
        example: "{document: followup, number: \"2\", caption: \"Loop area at A = {{ input.amplitude }} m\"}",
    },
    KindDoc {
        name: "assumption",
        doc: "a choice the source does not make, with its reason; `cargo xtask sensitivity` \
              evaluates every check under each alternative reading",
        fields: &[
            req("what", Text, "", "the choice"),
            req("why", Text, "", "its reason"),
            opt(
                "replaces",
                Text,
                "",
                "a value the source states that this replaces, with its line: not reproduced then",
            ),
            opt(
                "supplies",
                Text,
                "",
                "a value the source does not state at all, with the silent line: partial at best",
            ),
            opt(
                "runs",
                Other,
                "",
                "a run id or a list: the runs whose values it sets (default all); a run taken by `from:` inherits only these",
            ),
            opt("alternatives", List, "", "[alternative, ...] other readings (see alternative)"),
        ],
        example: "{what: \"A = 2 mm\", why: \"both pre-sliding and sliding\", alternatives: [{name: a1mm, run: lugre, set: {input.amplitude: 0.001}}]}",
    },
    KindDoc {
        name: "alternative",
        doc: "another reading of an assumption: new values for parameters of one run (or several)",
        fields: &[
            req("name", Text, "", "unique among the manifest's alternatives"),
            req("run", Text, "", "a run id, or a list of them (a swept run changes every member)"),
            req("set", Other, "", "{param or input.<field>: value, ...}"),
            opt("why", Text, "", "why this reading is possible"),
        ],
        example: "{name: m_2kg, run: cart, set: {m: 2}, why: \"the text's other mass\"}",
    },
    KindDoc {
        name: "explain",
        doc: "on a check marked known_discrepancy (discrepancy: assumption): the parameter value \
              that would reproduce the expected number; `cargo xtask explain` solves for it",
        fields: &[
            req("run", Text, "", "the run whose parameter is varied"),
            req("param", Text, "", "parameter name, or input.<field>"),
            req("range", Pair, "", "[lo, hi] the values the search may try"),
            opt("xtol", Number, "", "relative precision, 1e-12 to 0.1 (default 1e-4)"),
        ],
        example: "{run: cart, param: m, range: [0.5, 5]}",
    },
    KindDoc {
        name: "find",
        doc: "where a metric reaches a level as one parameter of one run moves over a bracket: a \
              bracketed root search (Illinois, bisecting when it stalls; at most 60 steps), each \
              step a cached run, the same steps at any --jobs. The result is the metric `name` \
              (checks, quotes, panels use it) with name.lo, name.hi, name.metric_lo, \
              name.metric_hi, name.evaluations; a jump over the level is no root: `name` is then \
              an error naming both sides, name.lo/name.hi place the jump",
        fields: &[
            req("name", Text, "", "the result's metric name"),
            req("run", Text, "", "the run whose parameter is varied (not a swept one)"),
            req("param", Text, "", "parameter name, input.<field> or sim.<field>"),
            req("metric", Text, "", "the metric (of this manifest, not a sweep's table)"),
            req("level", Number, "", "the value the metric must reach"),
            req("bracket", Pair, "", "[a, b]: the metric on opposite sides of the level at a and b"),
            req("tol", Number, "", "the final bracket's width, in the parameter's unit"),
            opt("unit", Text, "", "the parameter's unit"),
            opt("continuation", Other, "", "{steps, carry: {<initial-state parameter>: <column>}}: instead of a root search, a continuation up the grid a + i(b − a)/steps from the run's own initial state, then down it, each run started from the previous run's final state (each carried parameter set to its column's last value); on each way the first grid interval where the metric crosses the level is bisected to tol, every trial started from the near side's final state. Results: name.up, name.down (the onsets, with .lo, .hi, .metric_lo, .metric_hi), name = name.up − name.down (the hysteresis), name.up.step<i>, name.down.step<i> (the branches), name.evaluations; {find: name} draws both onsets, {find: name.up} / {find: name.down} a branch"),
        ],
        example: "{name: a3, run: ms, param: input.amplitude, metric: area, level: 3, bracket: [1, 3], tol: 1e-9, unit: m}",
    },
    KindDoc {
        name: "fit",
        doc: "run parameters fitted by least squares: minimise Σ((metric − value)/sigma)² over \
              the targets (a `points` target adds one term per point, its metric evaluated with \
              `at` set to the point's abscissa) by argmin's trust region (Steihaug) on the \
              Gauss–Newton model with forward differences, within each parameter's bounds, each \
              evaluation a cached run, the same steps at any --jobs; a stop where the cost is \
              not smooth follows the rule of `scan`. Results (metrics for checks, quotes, tables, the baseline): \
              name.<param>, name.<param>.sd (standard error from s²(JᵀJ)⁻¹, s² = Σr²/(m − n)), \
              name.residual (√Σr²), name.residual.<metric> (per target: metric − value, or the \
              RMS over its points), name.evaluations, name.iterations, name.non_smooth (0, or 1 with the scan's evidence). Another manifest takes \
              a result as a run parameter, `sigma: {fitted: \"<doc>/<name>#<fit>.<param>\"}` (the \
              fit evaluated before that manifest's runs are planned, the value in their cache \
              keys), or as a metric `{kind: fitted, fit: \"<doc>/<name>#<fit>.<param>\"}`",
        fields: &[
            req("name", Text, "", "the results' name"),
            req("run", Text, "", "the run whose parameters are fitted (not a swept one)"),
            req("params", List, "", "[{param, start, bounds: [lo, hi], step?, unit?}]: param is a parameter name, input.<field> or sim.<field>; step the forward-difference step (default 1e-6 (hi − lo))"),
            req("targets", List, "", "[{metric, value | points: [[at, value], ...] | csv: {path, x, y} | samples: {run, x, y}, manifest?, sigma?, provenance?}]: a metric of this manifest (points, csv, samples: one with an `at` field, e.g. value-at); csv: the points are the rows of a file under data/ (x strictly increasing), read at load; csv with `loop: true`: a measured loop without time (rows of input x and output y in the order measured, x up and down), each row compared with the model's y on the same branch (x rising or falling, by its step from the row before) at its x over the metric's window (default the last period), the metric a `value-at` of a fitted run, e.g. {metric: f_u, csv: {path: data/followup/dahl-loop.csv, x: u, y: F, loop: true}}; samples: every sample of another run of the manifest (not a fitted one); manifest: `<doc>/<name>`, the metric is that manifest's, evaluated with the fitted parameters set in its runs taken (`from:`) from a fitted run (with `value`)"),
            opt("tol", Number, "", "relative step and cost-reduction tolerance (default 1e-8)"),
            opt("max_evaluations", Number, "", "the evaluation budget (default 200)"),
            opt("scan", Number, "", "the rule for a non-smooth cost (default 21; 0: off, such a stop is an error): where the trust region stalls (radius below tol, no lower trial point, while the Gauss–Newton step promises a fall above tol × cost; at a stop within one difference step of a jump, where forward and backward differences disagree, the smooth side's step), the cost is evaluated at the Gauss–Newton point and at `scan` even values of each parameter over its bounds (the others held), the trust region restarted once from the lowest if lower; the lowest point found is the result, reported as a minimum of a non-smooth cost: name.non_smooth = 1, name.stall.cost, name.gn.predicted_fall, name.gn.actual_fall, name.scan.best_cost, name.scan.local_minima, name.scan.restarted"),
            opt("profile", List, "", "[k, ...]: whole multiples 1 to 5 of each parameter's standard error; at p̂ ± k·sd the cost is minimised over the other parameters and name.<param>.profile.lo<k> / .hi<k> = (cost − ĉ)/(k² s²) recorded: 1 where the quadratic approximation behind .sd holds"),
        ],
        example: "{name: id, run: dahl, params: [{param: sigma, start: 500, bounds: [100, 5000]}], targets: [{metric: f_at, points: [[0, 0.5], [0.001, 0.9]]}]}",
    },
    KindDoc {
        name: "quotes",
        doc: "{{ name }} or {{ name | fmt(\".3g\") }} in a caption, a panel title, a table cell or \
              note: a metric's value (name[k] for member k; 0 within its absolute baseline \
              tolerance) or a run parameter; an unknown name is an error at its line",
        fields: &[
            opt("metric", Text, "", "a metric of the manifest: area, area[3]"),
            opt(
                "parameter",
                Text,
                "",
                "a parameter all runs that have it agree on (sigma0, input.omega), or one run's: \
                 RUN.PARAM, RUN[k].PARAM, RUN.input.FIELD",
            ),
            opt("fmt", Text, "", ".Ng (significant digits) | .Ne | .Nf; default shortest exact"),
        ],
        example: "\"σ0 = {{ sigma0 }} N/m; area {{ area[1] | fmt(\\\".4g\\\") }} J\"",
    },
];
