//! From the written input to a resolved one by its kind's declaration: the kind is known, every
//! written field is declared, every value has its declared type, a left-out field takes its
//! default (a required one is an error), then the kind's own checks. Every problem is reported,
//! each at `input.<field>` (the loader locates it at its line).

use super::value::FieldError;
use super::{find, names, Input};
use crate::Invalid;
use fric_manifest::{FieldDefault, FieldType, InputSpec, InputValue};

/// The input `written` resolved by its kind's declaration and checked by the kind, or every
/// problem found.
pub fn resolve(written: &InputSpec) -> Result<Input, Vec<Invalid>> {
    let input = typed(written)?;
    let mut errs = Vec::new();
    (input.decl().check)(&input, &mut errs);
    if errs.is_empty() {
        Ok(input)
    } else {
        Err(errs)
    }
}

/// The input `written` typed by its kind's declaration, defaults filled in (not yet checked by
/// the kind: [`resolve`] does both), or every problem found.
pub fn typed(written: &InputSpec) -> Result<Input, Vec<Invalid>> {
    let Some(decl) = find(&written.kind) else {
        return Err(vec![Invalid::new(
            "input.kind",
            format!("unknown input kind `{}`", written.kind),
            names(),
        )]);
    };
    let name = decl.doc.name;
    let mut errs = Vec::new();
    let allowed = decl.doc.field_names().join(", ");
    for given in written.fields.keys() {
        if decl.doc.field(given).is_none() {
            errs.push(Invalid::new(
                format!("input.{given}"),
                format!("input kind `{name}` takes no `{given}`"),
                format!("fields: {allowed}"),
            ));
        }
    }
    let mut values = Vec::new();
    for f in decl.doc.fields {
        let at = format!("input.{}", f.name);
        let typed = match (written.fields.get(f.name), f.default) {
            (Some(w), _) => Input::typed(f.ty, w),
            (None, Some(d)) => Input::typed(f.ty, &default(d)),
            (None, None) => {
                errs.push(Invalid::new(
                    "input",
                    format!("input kind `{name}` needs `{}`", f.name),
                    format!("{} ({})", f.name, f.doc),
                ));
                continue;
            }
        };
        match typed {
            Ok(v) => values.push((f.name, v)),
            // A value of the wrong type in the words serde uses for the rest of the manifest.
            Err(FieldError::WrongType(e)) => errs.push(Invalid::new(
                at,
                format!("invalid type: `{}` {e}", f.name),
                format!("{}: {}", super::value::described(f.ty), f.doc),
            )),
            Err(FieldError::Malformed(e)) => errs.push(Invalid::new(at, format!("`{}`: {e}", f.name), f.doc)),
        }
    }
    if !errs.is_empty() {
        return Err(errs);
    }
    Ok(Input::new(decl, values))
}

/// A declared default as a manifest would write it.
fn default(d: FieldDefault) -> InputValue {
    match d {
        FieldDefault::Number(v) => InputValue::Number(v),
        FieldDefault::Text(t) => InputValue::Text(t.to_string()),
    }
}

/// `written` with its field `field` set to the number `value`: the one path by which sweeps,
/// alternative readings and explanations change an input. An error if the kind has no such
/// field, or takes no number there.
pub fn set_number(written: &InputSpec, field: &str, value: f64) -> Result<InputSpec, String> {
    let decl =
        find(&written.kind).ok_or_else(|| format!("unknown input kind `{}` (kinds: {})", written.kind, names()))?;
    match decl.doc.field(field) {
        Some(f) if f.ty == FieldType::Number => {
            let mut set = written.clone();
            set.set(field, value);
            Ok(set)
        }
        Some(_) => Err(format!("cannot set `input.{field}` to {value}")),
        None => {
            let mut names: Vec<String> = decl.doc.fields.iter().map(|f| format!("`{}`", f.name)).collect();
            names.sort();
            Err(format!(
                "the input has no numeric field `{field}` (fields: {})",
                names.join(", ")
            ))
        }
    }
}

/// What `Value` a kind's example gives each field (the tests' view of a declaration).
#[cfg(test)]
pub(super) fn example(name: &str) -> Input {
    let decl = find(name).unwrap();
    let written: InputSpec = serde_yaml::from_str(decl.doc.example).unwrap();
    resolve(&written).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::Value;

    /// Every kind's example resolves; every left-out field takes its declared default; an
    /// undeclared field and a missing required one are refused at their paths.
    #[test]
    fn examples_resolve_and_left_out_fields_take_their_defaults() {
        let mut defaults = 0;
        for decl in super::super::all() {
            let input = example(decl.doc.name);
            assert_eq!(input.kind(), decl.doc.name);
            let written: InputSpec = serde_yaml::from_str(decl.doc.example).unwrap();
            for f in decl.doc.fields.iter().filter(|f| !written.fields.contains_key(f.name)) {
                let want = match f.default {
                    Some(FieldDefault::Number(v)) => serde_json::json!(v),
                    Some(FieldDefault::Text(t)) => serde_json::json!(t),
                    None => panic!("{}: required `{}` missing from the example", decl.doc.name, f.name),
                };
                assert_eq!(serde_json::to_value(input.get(f.name).unwrap()).unwrap(), want);
                defaults += 1;
            }
            let mut extra = written.clone();
            extra.set("nope", 1.0);
            let e = resolve(&extra).unwrap_err();
            assert_eq!(e[0].path, "input.nope", "{}", decl.doc.name);
            if let Some(f) = decl.doc.fields.iter().find(|f| f.required) {
                let mut missing = written.clone();
                missing.fields.remove(f.name);
                let e = resolve(&missing).unwrap_err();
                assert!(e[0].message.contains(&format!("needs `{}`", f.name)), "{e:?}");
            }
        }
        assert!(defaults >= 8, "{defaults} defaults checked");
    }

    /// Every declared number of every kind can be set by an override (and only it changes); any
    /// other field is refused as not a number, an undeclared name with the kind's fields.
    #[test]
    fn every_declared_number_of_every_input_kind_is_set_and_nothing_else() {
        for decl in super::super::all() {
            let input = example(decl.doc.name);
            let written = input.written();
            for f in decl.doc.fields {
                let r = set_number(&written, f.name, 1234.5);
                if f.ty == FieldType::Number {
                    let set = typed(&r.unwrap()).unwrap();
                    for (n, v) in set.values() {
                        let want = if *n == f.name {
                            &Value::Number(1234.5)
                        } else {
                            input.get(n).unwrap()
                        };
                        assert_eq!(v, want, "{} {}", decl.doc.name, f.name);
                    }
                } else {
                    let e = r.expect_err(f.name);
                    assert_eq!(
                        e,
                        format!("cannot set `input.{}` to 1234.5", f.name),
                        "{}",
                        decl.doc.name
                    );
                }
            }
            let e = set_number(&written, "nope", 1.0).unwrap_err();
            let mut names: Vec<String> = decl.doc.fields.iter().map(|f| format!("`{}`", f.name)).collect();
            names.sort();
            let want = format!("the input has no numeric field `nope` (fields: {})", names.join(", "));
            assert_eq!(e, want, "{}", decl.doc.name);
        }
    }

    /// A written value of another type than the declared one is told from a value of the right
    /// shape that does not parse: the first in the manifest's words for a wrong type, the
    /// second in the parser's.
    #[test]
    fn a_wrong_type_and_a_malformed_value_are_different_errors() {
        let text = |t: &str| InputValue::Text(t.into());
        let wrong = Input::typed(FieldType::Number, &text("five"));
        assert_eq!(wrong, Err(FieldError::WrongType("must be a number, got `five`".into())));
        let malformed = Input::typed(FieldType::Scale, &text("logarithmic")).unwrap_err();
        assert!(matches!(malformed, FieldError::Malformed(_)), "{malformed:?}");
        // In a resolved input: the wrong type as the rest of the manifest says it, the malformed
        // value with its field's name.
        let mut written: InputSpec = serde_yaml::from_str("{kind: grid, from: 0, to: 1, points: 3}").unwrap();
        written.fields.insert("from".into(), text("five"));
        written.fields.insert("scale".into(), text("logarithmic"));
        let e = typed(&written).unwrap_err();
        assert_eq!(
            e[0].message, "invalid type: `from` must be a number, got `five`",
            "{e:?}"
        );
        assert!(e[1].message.starts_with("`scale`: "), "{e:?}");
    }

    /// Only a grid's samples are computed points (each a result at a chosen parameter): a
    /// figure keeps them all in print; a signal's and an autonomous run's are integrator steps.
    #[test]
    fn the_grid_kind_declares_its_samples_computed_points() {
        let computed: Vec<&str> = super::super::all()
            .into_iter()
            .filter(|d| d.role.computed_points())
            .map(|d| d.doc.name)
            .collect();
        assert_eq!(computed, ["grid"]);
        assert_eq!(crate::inputs::grid_span(&example("grid")), Some((-0.1, 0.1, 401)));
        assert_eq!(crate::inputs::grid_span(&example("sine")), None);
    }

    /// The written form of a resolved input resolves to the same input (an override's round trip).
    #[test]
    fn written_and_resolved_again_is_the_same_input() {
        for decl in super::super::all() {
            let input = example(decl.doc.name);
            assert_eq!(resolve(&input.written()).unwrap(), input, "{}", decl.doc.name);
        }
    }
}
