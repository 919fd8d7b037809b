//! The modules of the facade, and of `hq-plan` below it, form layers
//! without cycles: read from the sources,
//! every `crate::module` a module's code names is an edge, and the graph
//! must be acyclic (what `cargo modules dependencies --acyclic` checks,
//! without building rust-analyzer in CI). A module that names an item of
//! the crate root (`crate::Bitboard`) depends on the root, which depends on
//! every module: a cycle too, so items are named by their own module.

use std::collections::{BTreeMap, BTreeSet};

/// The modules of the crate in `crate_dir` (one file each) and the modules
/// each one's code names.
fn graph(crate_dir: &str) -> BTreeMap<String, BTreeSet<String>> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(crate_dir)
        .join("src");
    let files: BTreeMap<String, String> = std::fs::read_dir(&src)
        .expect("the crate's sources")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("a source file"))
        })
        .collect();
    files
        .iter()
        .map(|(module, text)| {
            let code: String = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            let named = names_after_crate(&code)
                .into_iter()
                .map(|n| {
                    if files.contains_key(&n) && n != "lib" {
                        n
                    } else {
                        "lib".to_owned()
                    }
                })
                .filter(|n| n != module)
                .collect();
            // The root declares every module: it is above them all.
            let named = match module.as_str() {
                "lib" => files.keys().filter(|m| *m != "lib").cloned().collect(),
                _ => named,
            };
            (module.clone(), named)
        })
        .collect()
}

/// The first path segment of every `crate::` path in `code`, including
/// each of a `crate::{a, b::c}` group.
fn names_after_crate(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        // `$crate::` in macros names the crate from outside: not an edge.
        if code[..at].ends_with('$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let (mut depth, mut start) = (0, 0);
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        names.push(ident(&group[start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        names.push(ident(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            names.push(ident(rest));
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

#[test]
fn the_modules_form_layers_without_cycles() {
    if cfg!(target_family = "wasm") {
        println!("SKIPPED layers: a wasm test reads no files (the host's run checks the sources)");
        return;
    }
    for crate_dir in [".", "../hq-plan"] {
        layers(crate_dir);
    }
}

/// Panics on a module cycle in the crate at `crate_dir`.
fn layers(crate_dir: &str) {
    let graph = graph(crate_dir);
    // Depth-first: a module is placed once everything it names is.
    let mut order: Vec<String> = Vec::new();
    let mut visiting: Vec<String> = Vec::new();
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        order: &mut Vec<String>,
        visiting: &mut Vec<String>,
    ) {
        if order.iter().any(|o| o == m) {
            return;
        }
        if let Some(at) = visiting.iter().position(|v| v == m) {
            let mut cycle = visiting[at..].to_vec();
            cycle.push(m.to_owned());
            panic!("module cycle: {}", cycle.join(" -> "));
        }
        visiting.push(m.to_owned());
        for next in &graph[m] {
            visit(next, graph, order, visiting);
        }
        visiting.pop();
        order.push(m.to_owned());
    }
    for m in graph.keys() {
        visit(m, &graph, &mut order, &mut visiting);
    }
    assert_eq!(order.last().map(String::as_str), Some("lib"), "{order:?}");
    println!("{crate_dir}: layers, from the bottom: {}", order.join(", "));
    for (m, named) in &graph {
        println!(
            "  {m} names {}",
            named.iter().cloned().collect::<Vec<_>>().join(", ")
        );
    }
}

#[test]
fn the_checker_sees_groups_and_cycles() {
    assert_eq!(
        names_after_crate("use crate::{a::{b, c}, d};\nlet x = crate::e::f();"),
        ["a", "d", "e"]
    );
}
