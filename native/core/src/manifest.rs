//! What a native module says it has (its *manifest*): the components a game's native puzzle implements --
//! algorithms, heuristics, driver-level pruners and fused successor rules -- each with its typed parameters.
//! The kit crate (`searchkit-pyo3`) hands it to Python as `manifest()`; Python reads from it which of a game's
//! components have a native twin, and its tests hold every Python `Param` to the entry here (name, type,
//! default, range). The keys are those of `crate::protocol::manifest`.

use crate::protocol;

/// A parameter's value: Python's `int`, `float` or `str`.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Str(&'static str),
}

impl Value {
    /// The type's name in the manifest (`crate::protocol::PARAM_TYPES`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Int(_) => protocol::TYPE_INT,
            Value::Float(_) => protocol::TYPE_FLOAT,
            Value::Str(_) => protocol::TYPE_STR,
        }
    }
}

/// One typed parameter: its name, default (whose variant is its type) and inclusive range (`None`: unbounded).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: &'static str,
    pub default: Value,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

impl Param {
    /// An `int` parameter.
    pub const fn int(name: &'static str, default: i64, min: Option<f64>, max: Option<f64>) -> Param {
        Param { name, default: Value::Int(default), min, max }
    }
    /// A `float` parameter.
    pub const fn float(name: &'static str, default: f64, min: Option<f64>, max: Option<f64>) -> Param {
        Param { name, default: Value::Float(default), min, max }
    }
    /// A `str` parameter.
    pub const fn str(name: &'static str, default: &'static str) -> Param {
        Param { name, default: Value::Str(default), min: None, max: None }
    }
}

/// A component's kind (`crate::protocol::COMPONENT_KINDS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Algorithm,
    Heuristic,
    /// A driver-level rule (Python's `Pruner.cut`): [`crate::Pruner`].
    Pruner,
    /// A successor rule fused into the puzzle's `successors` ([`crate::Puzzle::rule_names`]).
    Rule,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Algorithm => protocol::ALGORITHM,
            Kind::Heuristic => protocol::HEURISTIC,
            Kind::Pruner => protocol::PRUNER,
            Kind::Rule => protocol::RULE,
        }
    }
}

/// One component of a manifest: its kind, its Python name and its parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Component {
    pub kind: Kind,
    pub name: &'static str,
    pub params: Vec<Param>,
}

impl Component {
    /// A component without parameters.
    pub fn plain(kind: Kind, name: &'static str) -> Component {
        Component { kind, name, params: Vec::new() }
    }
}

/// The largest weight (and anytime's step): Python's `searchkit.algorithm.WEIGHT_MAX`.
pub const WEIGHT_MAX: f64 = 100_000.0;

/// The drivers every native module has (the core's), with their options as Python declares them
/// (`searchkit/machinery/drivers/*.py`): the first part of every manifest.
pub fn algorithms() -> Vec<Component> {
    use Kind::Algorithm as A;
    let weight = Param::float("weight", 2.0, Some(1.0), Some(WEIGHT_MAX));
    vec![
        Component::plain(A, "astar"),
        Component::plain(A, "peastar"),
        Component::plain(A, "ida_star"),
        Component::plain(A, "ida_star_tt"),
        Component { kind: A, name: "wastar", params: vec![weight.clone()] },
        Component::plain(A, "gbfs"),
        Component::plain(A, "bfs"),
        Component { kind: A, name: "beam", params: vec![Param::int("width", 64, Some(1.0), None)] },
        Component {
            kind: A,
            name: "anytime",
            params: vec![weight, Param::float("step", 0.5, Some(0.0), Some(WEIGHT_MAX)),
                         Param::int("ara", 0, Some(0.0), Some(1.0))],
        },
        Component::plain(A, "bounded_dfs"),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_algorithms() {
        assert_eq!(algorithms().len(), 10);
    }
}
