//! Unit enums whose values carry their names: [`named_enum!`] writes each variant's name once,
//! as its serde name, and the enum's `name()` from the same literal, so a name is never found by
//! serialising a value (no `serde_json::to_value` to name a variant).

/// A unit enum with each variant's name written beside it, once:
///
/// ```
/// fric_manifest::named_enum! {
///     #[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
///     pub enum Shade {
///         /// Documented variants keep their docs.
///         Light = "light",
///         DarkBlue = "dark-blue",
///     }
/// }
/// assert_eq!(Shade::DarkBlue.name(), "dark-blue");
/// assert_eq!(serde_json::to_string(&Shade::DarkBlue).unwrap(), "\"dark-blue\"");
/// assert_eq!(Shade::ALL, [Shade::Light, Shade::DarkBlue]);
/// ```
///
/// The literal becomes the variant's `#[serde(rename)]` (which the JSON Schema reads too) and
/// what `name()` returns, so the two cannot differ; `ALL` lists the variants in their order.
/// The enum derives `Serialize`/`Deserialize` itself (the attributes pass through).
#[macro_export]
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $enum:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $name:tt ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $enum {
            $( $(#[$vmeta])* #[serde(rename = $name)] $variant, )+
        }

        impl $enum {
            /// Every value, in the order declared.
            pub const ALL: &'static [$enum] = &[$($enum::$variant),+];

            /// The name manifests and report.json write for this value (its serde name).
            pub const fn name(self) -> &'static str {
                match self {
                    $( $enum::$variant => $name, )+
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::named_enum! {
        #[derive(Clone, Copy, Debug, PartialEq, Default, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
        enum Toy {
            /// The first.
            #[default]
            One = "one",
            TwoWords = "two-words",
        }
    }

    /// The name, the serde name (both ways) and the JSON Schema's are one.
    #[test]
    fn a_variant_has_one_name() {
        for t in Toy::ALL {
            let json = serde_json::to_value(t).unwrap();
            assert_eq!(json, t.name());
            assert_eq!(serde_json::from_value::<Toy>(json).unwrap(), *t);
        }
        assert_eq!(Toy::default(), Toy::One);
        let schema = serde_json::to_string(&schemars::schema_for!(Toy)).unwrap();
        assert!(
            schema.contains("\"two-words\"") && schema.contains("The first."),
            "{schema}"
        );
    }
}
