//! What an assumption carries (`assumptions[].carries`): the class the status rule of
//! `experiments/README.md` reads. Some classes are what an assumption may carry (a choice the
//! source leaves open that does not change what the figure claims); the others supply a value
//! the source does not state, or replace one it states, and keep the manifest from `reproduced`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The class of what an assumption carries. Required on every assumption.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum Carries {
    /// A solver, tolerance, step, sampling or resolution, or how long a run is simulated
    /// before it is read (may carry).
    SolverSetting,
    /// A window or time span shown, or the period a loop is read on (may carry).
    Window,
    /// An initial state the text implies: at rest, the zero state, a loop's start (may carry).
    InitialState,
    /// A plotting choice: axes, ranges, which curves, layout, markers (may carry).
    Plotting,
    /// A reading of notation or of the text, a formula's printed form, or a printed typo whose
    /// correct value another printed line fixes (cite both) (may carry).
    Reading,
    /// A value the source implies without printing it here: stated elsewhere in the document
    /// for this case, or following from printed values (cite the lines) (may carry).
    Implied,
    /// A run, curve, check or measurement the project adds beside what the source shows (an
    /// evidence run, a check at another frequency, an added case), which changes nothing the
    /// figure claims (may carry).
    Addition,
    /// A value for a qualitative figure that prints no number depending on it (a sketch of a
    /// shape): the source states none because the figure's claim needs none (may carry; a
    /// figure checked against printed numbers cannot use it).
    Illustrative,
    /// A choice of a study of one's own (a document with `source: none`, which has no source
    /// to state it); only such a document's manifests use it.
    Design,
    /// A model parameter, or a model element, the source does not state at all (a lost
    /// parameter table): `supplies:` names it with the silent seed line. `partial` at best.
    UnstatedParameter,
    /// An input (amplitude, frequency, rate, shape, reversal points) the source does not
    /// state: `supplies:` names it with the silent seed line. `partial` at best.
    UnstatedInput,
    /// A quantity the caption or text states, replaced by another value: `replaces:` names it
    /// with its seed line. Not `reproduced`.
    Replaced,
}

impl Carries {
    pub const ALL: [Carries; 12] = [
        Carries::SolverSetting,
        Carries::Window,
        Carries::InitialState,
        Carries::Plotting,
        Carries::Reading,
        Carries::Implied,
        Carries::Addition,
        Carries::Illustrative,
        Carries::Design,
        Carries::UnstatedParameter,
        Carries::UnstatedInput,
        Carries::Replaced,
    ];

    /// The name manifests and report.json write.
    pub fn as_str(self) -> &'static str {
        match self {
            Carries::SolverSetting => "solver-setting",
            Carries::Window => "window",
            Carries::InitialState => "initial-state",
            Carries::Plotting => "plotting",
            Carries::Reading => "reading",
            Carries::Implied => "implied",
            Carries::Addition => "addition",
            Carries::Illustrative => "illustrative",
            Carries::Design => "design",
            Carries::UnstatedParameter => "unstated-parameter",
            Carries::UnstatedInput => "unstated-input",
            Carries::Replaced => "replaced",
        }
    }

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
        Carries::ALL.map(Carries::as_str).join(", ")
    }
}
