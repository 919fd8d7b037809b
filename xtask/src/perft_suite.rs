//! `cargo xtask perft-suite [OPTIONS]`: hq-chess's `perft-suite` binary,
//! built optimised (`--help` lists its options). A binary of its own, so
//! that xtask does not link the perft of every backend: that optimised build
//! was most of a fresh xtask build's time.

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
    let sh = crate::sh()?;
    let suite = crate::test::cargo(&sh, "run --release -q -p hq-chess --bin perft-suite --");
    Ok(suite.args(&args.options).run()?)
}
