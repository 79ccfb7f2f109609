//! What an assumption carries (`assumptions[].carries`): the class the status rule of
//! `experiments/README.md` reads. Some classes are what an assumption may carry (a choice the
//! source leaves open that does not change what the figure claims); the others supply a value
//! the source does not state, or replace one it states, and keep the manifest from `reproduced`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

crate::named_enum! {
    /// The class of what an assumption carries. Required on every assumption.
    #[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub enum Carries {
        /// A solver, tolerance, step, sampling or resolution, or how long a run is simulated
        /// before it is read (may carry).
        SolverSetting = "solver-setting",
        /// A window or time span shown, or the period a loop is read on (may carry).
        Window = "window",
        /// An initial state the text implies: at rest, the zero state, a loop's start (may carry).
        InitialState = "initial-state",
        /// A plotting choice: axes, ranges, which curves, layout, markers (may carry).
        Plotting = "plotting",
        /// A reading of notation or of the text, a formula's printed form, or a printed typo whose
        /// correct value another printed line fixes (cite both) (may carry).
        Reading = "reading",
        /// A value the source implies without printing it here: stated elsewhere in the document
        /// for this case, or following from printed values (cite the lines) (may carry).
        Implied = "implied",
        /// A run, curve, check or measurement the project adds beside what the source shows (an
        /// evidence run, a check at another frequency, an added case), which changes nothing the
        /// figure claims (may carry).
        Addition = "addition",
        /// A value for a qualitative figure that prints no number depending on it (a sketch of a
        /// shape): the source states none because the figure's claim needs none (may carry; a
        /// figure checked against printed numbers cannot use it).
        Illustrative = "illustrative",
        /// A choice of a study of one's own (a document with `source: none`, which has no source
        /// to state it); only such a document's manifests use it.
        Design = "design",
        /// A model parameter, or a model element, the source does not state at all (a lost
        /// parameter table): `supplies:` names it with the silent seed line. `partial` at best.
        UnstatedParameter = "unstated-parameter",
        /// An input (amplitude, frequency, rate, shape, reversal points) the source does not
        /// state: `supplies:` names it with the silent seed line. `partial` at best.
        UnstatedInput = "unstated-input",
        /// A quantity the caption or text states, replaced by another value: `replaces:` names it
        /// with its seed line. Not `reproduced`.
        Replaced = "replaced",
    }
}

impl Carries {
    /// Whether an assumption of this class supplies a value the source does not state
    /// (its `supplies:` text is then required).
    pub fn supplies(self) -> bool {
        matches!(self, Carries::UnstatedParameter | Carries::UnstatedInput)
    }

    /// Whether an assumption of this class keeps its manifest from `reproduced`.
    pub fn blocks_reproduced(self) -> bool {
        self.supplies() || self == Carries::Replaced
    }

    /// Every class, for messages: `solver-setting, window, …`.
    pub fn allowed() -> String {
        Carries::ALL.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
    }
}
