//! `none`: no input, an autonomous system run for `sim.t_end`.

use super::*;
use crate::budget;

pub const DECL: InputDecl = InputDecl {
    doc: KindDoc {
        name: "none",
        doc: "no input: an autonomous system, run for sim.t_end",
        fields: &[],
        example: "{kind: none}",
    },
    role: Role::Autonomous,
    check: nothing_to_check,
    signal: no_signal,
    period: no_period,
    budget: budget::autonomous,
    reads_file: false,
};
