//! `cargo xtask perft-suite [OPTIONS]`: hq-chess's `perft-suite` binary,
//! built optimised (`--help` lists its options: backends, suites, depth,
//! threads). A binary of its own, so that xtask does not link the perft of
//! every backend: that optimised build was most of a fresh xtask build's
//! time (figures in the commit that moved it).

/// `cargo xtask perft-suite`'s options: passed on to the binary (`--help`
/// too).
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
pub struct Args {
    /// The binary's options.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    options: Vec<String>,
}

/// Entry point for `cargo xtask perft-suite`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let mut command = vec![
        "run",
        "--release",
        "-q",
        "-p",
        "hq-chess",
        "--bin",
        "perft-suite",
        "--",
    ];
    command.extend(args.options.iter().map(String::as_str));
    crate::test::cargo(&command)
}
