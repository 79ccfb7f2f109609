//! The JSON Schema of the manifest format: the committed `experiments/manifest.schema.json`
//! (fric-pipeline's tests/kinds.rs checks it is the generated one) names every field the parser
//! accepts, and every manifest of the project validates against it (with a small validator for
//! the keywords schemars emits), as do the examples of every declared kind.

use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The committed schema: generated with the metric kinds, which are declared with their
/// evaluation in `fric_pipeline` (whose tests/kinds.rs checks that the file is the generated one).
fn schema() -> Value {
    let text = std::fs::read_to_string(root().join("experiments/manifest.schema.json"))
        .expect("experiments/manifest.schema.json exists (cargo xtask schema --write)");
    serde_json::from_str(&text).unwrap()
}

/// Validate `v` against `s`; problems are pushed with their JSON path. Supports the keywords
/// schemars emits: $ref, type, properties, required, additionalProperties, items, anyOf, oneOf,
/// enum, const, minItems, maxItems, minimum.
fn check(root: &Value, s: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
    let Some(o) = s.as_object() else { return };
    if let Some(r) = o.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local refs");
        check(root, &root["$defs"][name], v, at, errs);
    }
    if let Some(t) = o.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let ok = types.iter().any(|t| match *t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "number" => v.is_number(),
            "integer" => v.is_i64() || v.is_u64(),
            "boolean" => v.is_boolean(),
            "null" => v.is_null(),
            _ => false,
        });
        if !ok {
            errs.push(format!("{at}: {v} is not of type {types:?}"));
            return;
        }
    }
    if let Some(c) = o.get("const") {
        if c != v {
            errs.push(format!("{at}: {v} is not {c}"));
        }
    }
    if let Some(e) = o.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            errs.push(format!("{at}: {v} is not one of {e:?}"));
        }
    }
    if let (Some(m), Some(x)) = (o.get("minimum").and_then(Value::as_f64), v.as_f64()) {
        if x < m {
            errs.push(format!("{at}: {x} < {m}"));
        }
    }
    for (key, many) in [("anyOf", false), ("oneOf", true)] {
        if let Some(alts) = o.get(key).and_then(Value::as_array) {
            let n = alts
                .iter()
                .filter(|a| {
                    let mut e = Vec::new();
                    check(root, a, v, at, &mut e);
                    e.is_empty()
                })
                .count();
            if n == 0 || (many && n > 1) {
                errs.push(format!("{at}: {v} matches {n} of the {key} alternatives"));
            }
        }
    }
    if let Some(obj) = v.as_object() {
        let props = o.get("properties").and_then(Value::as_object);
        for r in o.get("required").and_then(Value::as_array).into_iter().flatten() {
            if !obj.contains_key(r.as_str().unwrap()) {
                errs.push(format!("{at}: missing {r}"));
            }
        }
        for (k, x) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => check(root, ps, x, &format!("{at}.{k}"), errs),
                None => match o.get("additionalProperties") {
                    Some(Value::Bool(false)) => errs.push(format!("{at}: unknown field {k}")),
                    Some(s @ Value::Object(_)) => check(root, s, x, &format!("{at}.{k}"), errs),
                    _ => {}
                },
            }
        }
    }
    if let Some(arr) = v.as_array() {
        if let Some(n) = o.get("minItems").and_then(Value::as_u64) {
            if (arr.len() as u64) < n {
                errs.push(format!("{at}: fewer than {n} items"));
            }
        }
        if let Some(n) = o.get("maxItems").and_then(Value::as_u64) {
            if (arr.len() as u64) > n {
                errs.push(format!("{at}: more than {n} items"));
            }
        }
        if let Some(items) = o.get("items") {
            for (i, x) in arr.iter().enumerate() {
                check(root, items, x, &format!("{at}[{i}]"), errs);
            }
        }
    }
}

fn yaml_to_json(text: &str) -> Value {
    let y: serde_yaml::Value = serde_yaml::from_str(text).unwrap();
    serde_json::to_value(y).unwrap()
}

#[test]
fn schema_names_every_field_the_parser_accepts() {
    let s = schema();
    let props = s["properties"].as_object().unwrap();
    for field in [
        "id",
        "kind",
        "source",
        "content",
        "status",
        "reason",
        "related",
        "assumptions",
        "runs",
        "layout",
        "panels",
        "metrics",
        "checks",
        "table",
    ] {
        assert!(props.contains_key(field), "{field}");
    }
    assert_eq!(s["additionalProperties"], Value::Bool(false));
    // Every declared field of every post-processing kind is a field of its struct, and every
    // declared input kind is an alternative of the input's schema.
    let defs = &s["$defs"];
    for k in fric_manifest::POST_KINDS {
        fields_exist(defs, "PostOp", k);
    }
    // The input kinds are declared with their signals (fric_experiments::inputs, whose tests
    // compare them with this schema): one alternative each.
    let alts = defs["InputSpec"]["oneOf"].as_array().unwrap();
    assert!(alts.len() >= 12, "{} input kinds", alts.len());
}

/// Every field `k` declares is a property of the schema definition `def`.
fn fields_exist(defs: &Value, def: &str, k: &fric_manifest::KindDoc) {
    for f in k.fields {
        let found = defs[def]["properties"].get(f.name).is_some();
        assert!(found, "{def}: {} of {}", f.name, k.name);
    }
}

#[test]
fn every_project_manifest_validates() {
    let s = schema();
    let mut n = 0;
    let mut errs = Vec::new();
    let mut stack = vec![root().join("experiments")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "yaml") && !p.ends_with("document.yaml") {
                let v = yaml_to_json(&std::fs::read_to_string(&p).unwrap());
                check(&s, &s, &v, &p.display().to_string(), &mut errs);
                n += 1;
            }
        }
    }
    assert!(n > 100, "{n} manifests");
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}

#[test]
fn examples_of_every_kind_validate_and_parse() {
    let s = schema();
    let defs = &s["$defs"];
    let mut errs = Vec::new();
    // An input kind's example is the end of its alternative's description.
    for alt in defs["InputSpec"]["oneOf"].as_array().unwrap() {
        let name = alt["properties"]["kind"]["const"].as_str().unwrap();
        let example = alt["description"].as_str().unwrap().rsplit("Example: ").next().unwrap();
        check(&s, &defs["InputSpec"], &yaml_to_json(example), name, &mut errs);
        let parsed =
            serde_yaml::from_str::<fric_manifest::InputSpec>(example).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(parsed.kind, name);
    }
    for k in fric_manifest::POST_KINDS {
        check(&s, &defs["PostOp"], &yaml_to_json(k.example), k.name, &mut errs);
        let p: fric_manifest::PostOp = serde_yaml::from_str(k.example).unwrap();
        assert_eq!(p.op.name(), k.name);
    }
    for k in fric_manifest::CHECK_KINDS {
        check(&s, &defs["CheckSpec"], &yaml_to_json(k.example), k.name, &mut errs);
    }
    for (k, def) in fric_manifest::PANEL_KINDS
        .iter()
        .zip(["Layout", "Panel", "Axis", "SeriesSpec", "Inset"])
    {
        check(&s, &defs[def], &yaml_to_json(k.example), k.name, &mut errs);
    }
    for k in fric_manifest::WINDOW_KINDS {
        check(&s, &defs["Window"], &yaml_to_json(k.example), k.name, &mut errs);
    }
    // Runs, sweeps and tables: every example validates and every declared field is a field of
    // its struct (a sweep form's fields are `Sweep`'s).
    for (k, def) in fric_manifest::RUN_KINDS
        .iter()
        .zip(["RunSpec", "RunSpec", "Sweep", "Sweep", "Sweep"])
        .chain(fric_manifest::TABLE_KINDS.iter().zip(["TableSpec", "TableFromMetrics"]))
    {
        check(&s, &defs[def], &yaml_to_json(k.example), k.name, &mut errs);
        fields_exist(defs, def, k);
    }
    // `find`: its example validates, its declared fields are `FindSpec`'s.
    let find = fric_manifest::MANIFEST_KINDS.iter().find(|k| k.name == "find").unwrap();
    check(&s, &defs["FindSpec"], &yaml_to_json(find.example), find.name, &mut errs);
    fields_exist(defs, "FindSpec", find);
    serde_yaml::from_str::<fric_manifest::FindSpec>(find.example).unwrap();
    // `fit`: the same.
    let fit = fric_manifest::MANIFEST_KINDS.iter().find(|k| k.name == "fit").unwrap();
    check(&s, &defs["FitSpec"], &yaml_to_json(fit.example), fit.name, &mut errs);
    fields_exist(defs, "FitSpec", fit);
    serde_yaml::from_str::<fric_manifest::FitSpec>(fit.example).unwrap();
    assert!(errs.is_empty(), "{}", errs.join("\n"));
    // A wrong field is refused by the schema, as by the parser.
    let mut e = Vec::new();
    check(
        &s,
        &defs["InputSpec"],
        &yaml_to_json("{kind: triangle, amplitude: 1, omega: 1, width: 0.5}"),
        "x",
        &mut e,
    );
    assert!(!e.is_empty());
}
