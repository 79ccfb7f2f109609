//! `fitted`: a parameter fitted by another manifest's `fit`, with its standard error.

use super::*;
use fric_manifest::FieldType::Text;

pub const DECL: MetricDecl = MetricDecl {
    doc: KindDoc {
        name: "fitted",
        doc: "a parameter another manifest's `fit` found, `<doc>/<name>#<fit>.<param>`: that fit evaluated again (its runs read from the run cache), its value the metric's and its standard error `<metric>.sd` (when the fit has one); the manifest's evaluation is keyed on the other manifest, so a changed fit evaluates it again",
        fields: &[
            NAME,
            req("fit", Text, "", "the fit result taken, `<doc>/<name>#<fit>.<param>`"),
            UNIT,
            NOTE,
            BASELINE,
        ],
        example: "{name: sigma_id, kind: fitted, fit: \"followup/fig6#id.sigma\", unit: N/m}",
    },
    other: OtherSeries::None,
    eval,
};

/// The value the evaluation put in beforehand (`crate::fit_refs`): a fit is evaluated with the
/// run cache, which a metric's evaluation does not see.
fn eval(c: &Ctx) -> Result<f64, String> {
    c.metric(&c.spec.name).map_err(|_| {
        let fit = c.spec.fit.as_deref().unwrap_or("?");
        format!("the fit result `{fit}` has no value (its error is listed)")
    })
}
