//! The declarations of a run's forms (`runs[]`: a run, a reference, the sweep forms) and of
//! the table kinds, beside the other kinds' in `kinds.rs` and read through the same types.

use super::kinds::FieldType::*;
use super::kinds::*;

/// The forms of a run (`runs[]`): a computed run, a reference to another manifest's run, and the
/// three sweep forms that expand one run into members `<id>[0]`, `<id>[1]`, ...
pub const RUN_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "run",
        doc: "one simulation or analytic evaluation of a system",
        fields: &[
            req("id", Text, "", "unique in the manifest; panels and metrics name it"),
            req("system", Text, "", "a system listed under Systems"),
            opt(
                "params",
                Other,
                "",
                "name: number | [list] | {value, unit, line}; unset parameters take their defaults",
            ),
            opt(
                "elements",
                Other,
                "",
                "{n: N, each: {param: rule}}: list parameters of N elements, each rule an expression in i = 1..N and n (\"i/n\"); sweep the count as elements.n",
            ),
            opt("input", Other, "", "the input signal or grid (see Inputs)"),
            opt("sim", Other, "", "the simulation settings (see Sim)"),
            opt("sweep", Other, "", "one run per member (see sweep, grid, zip)"),
            opt("post", List, "", "derived columns (see Post-processing)"),
        ],
        example: "{id: dahl, system: dahl, params: {sigma: {value: 7.5, unit: N/m, line: 412}, fc: 1.5}, input: {kind: sine, amplitude: 5, omega: 2}, sim: {periods: 2}}",
    },
    KindDoc {
        name: "from",
        doc: "another manifest's run, shared (computed once, cached once); no other field but `id`",
        fields: &[
            req("id", Text, "", "this manifest's name for it"),
            req("from", Text, "", "<doc>/<name>#<run id>"),
        ],
        example: "{id: cbm, from: \"thesis/fig4.4#cbm\"}",
    },
    KindDoc {
        name: "sweep",
        doc: "one parameter over a list of values: members <id>[k], k = 0, 1, ...",
        fields: &[
            req(
                "param",
                Text,
                "",
                "a parameter name, input.<field>, sim.<field> (periods, t_end, samples_per_period, rtol, atol) or elements.n",
            ),
            req("values", List, "", "[v0, v1, ...]"),
        ],
        example: "{param: input.omega, values: [1, 0.1, 0.01]}",
    },
    KindDoc {
        name: "grid",
        doc: "several parameters, every combination (row-major: the last varies fastest)",
        fields: &[req(
            "grid",
            List,
            "",
            "[{param, values} or {zip: [{param, values}, ...]}, ...]; a zip is one axis (its parameters vary together); members are numbered in row-major order",
        )],
        example: "{grid: [{param: sigma1, values: [0, 10]}, {zip: [{param: input.omega, values: [1, 10]}, {param: sim.samples_per_period, values: [400, 4000]}]}]}",
    },
    KindDoc {
        name: "zip",
        doc: "several parameters taken together: value k of each for member k",
        fields: &[req("zip", List, "", "[{param, values}, ...] with lists of equal length")],
        example: "{zip: [{param: fc, values: [1, 2]}, {param: fs, values: [1.5, 3]}]}",
    },
];

/// A table (`table:` of a `kind: table` manifest) and its rows generated from metric tables.
pub const TABLE_KINDS: &[KindDoc] = &[
    KindDoc {
        name: "table",
        doc: "a LaTeX table: written rows (cells may hold metric values), then generated rows",
        fields: &[
            opt(
                "columns",
                List,
                "",
                "[heading, ...]; may be left out with from_metrics and no rows",
            ),
            opt(
                "rows",
                List,
                "",
                "[[cell, ...], ...]; {{ name }} or {{ name | fmt(\".3g\") }} is a metric's value (name[k] for member k)",
            ),
            opt("lines", List, "", "[seed line, ...] the rows are transcribed from"),
            opt("notes", List, "", "[text, ...] printed under the table; may quote metrics and parameters (see quotes)"),
            opt("from_metrics", Other, "", "rows generated from metric tables (see from_metrics)"),
        ],
        example: "{columns: [model, \"area [J]\"], rows: [[Dahl, \"{{ area | fmt(\\\".4g\\\") }}\"]], lines: [350]}",
    },
    KindDoc {
        name: "from_metrics",
        doc: "rows generated from metrics: every value a record at its coordinates (the sweep \
              parameters of its run, also a run taken by `from:`, plus its `at`); one row per \
              coordinates, one column per quantity, a `pivot` coordinate across",
        fields: &[
            req(
                "metrics",
                List,
                "",
                "[name | {metric, at: {PARAM: value}, as: QUANTITY}, ...]: metrics over swept runs \
                 (one record per member) or single metrics; several runs, one per N, become one \
                 table with at: {N: ...}",
            ),
            opt(
                "format",
                Text,
                "",
                ".Ng | .Ne | .Nf (default .4g); within the metric's absolute baseline tolerance of 0 prints 0",
            ),
            opt("pivot", Text, "", "a coordinate whose values go across (amplitude down, N across)"),
        ],
        example: "{metrics: [{metric: area4, at: {N: 4}, as: area}, {metric: area8, at: {N: 8}, as: area}], pivot: N}",
    },
];
