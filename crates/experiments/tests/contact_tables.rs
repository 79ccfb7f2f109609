//! Thesis Tables 3.1 and 3.2: the LaTeX rows of the manifests are the rows of
//! `fric_models::rbm::TABLE_3_1` / `TABLE_3_2`, the data the RBM state machine is tested against
//! row by row (`rbm::tests::table_3_1_row_by_row`, `table_3_2_row_by_row`). One source: an edit
//! of either side without the other fails here.

use fric_models::rbm::{ContactRow, TABLE_3_1, TABLE_3_2};
use std::path::Path;

fn rows_of(file: &str) -> Vec<Vec<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../experiments/thesis")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let m = fric_manifest::parse(file, &text).unwrap_or_else(|d| panic!("{file}: {d:?}"));
    m.table.expect("a table manifest").rows
}

fn expected(rows: &[ContactRow]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| {
            let mut v = vec![r.velocity, r.position, r.left, r.right];
            if !r.figure.is_empty() {
                v.push(r.figure);
            }
            v.into_iter().map(String::from).collect()
        })
        .collect()
}

#[test]
fn table_3_1_rows_are_the_model_data() {
    assert_eq!(rows_of("table3.1.yaml"), expected(&TABLE_3_1));
}

#[test]
fn table_3_2_rows_are_the_model_data() {
    assert_eq!(rows_of("table3.2.yaml"), expected(&TABLE_3_2));
}
