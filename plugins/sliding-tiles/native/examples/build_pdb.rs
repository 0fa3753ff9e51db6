//! Build one sliding-tile table and print its value histogram: `build_pdb N TILE...` (a benchmark aid);
//! `THREADS=T` in the environment builds it on T threads, `BUILDER=layered` by the core's layered builder
//! (`searchkit_tiles::pdb::build_layered`) instead of the one the product uses.
fn main() {
    let args: Vec<u8> = std::env::args().skip(1).map(|a| a.parse().expect("numbers")).collect();
    let (n, tiles) = (args[0] as usize, &args[1..]);
    let threads = std::env::var("THREADS").ok().map_or(1, |t| t.parse().expect("THREADS: a number"));
    let build = match std::env::var("BUILDER").as_deref() {
        Ok("layered") => searchkit_tiles::pdb::build_layered,
        Ok(other) if !other.is_empty() => panic!("BUILDER: layered or nothing, not {other}"),
        _ => searchkit_tiles::pdb::build_threads,
    };
    let v = build(n, tiles, threads, &searchkit_core::Limiter::new(), |_, _| {}).expect("built");
    let mut hist = [0u64; 256];
    for &x in &v {
        hist[x as usize] += 1;
    }
    let crc = searchkit_core::pdb::crc32(&v);
    println!("entries {} crc {crc:08x}", v.len());
    for (d, &c) in hist.iter().enumerate().filter(|(_, &c)| c > 0) {
        println!("{d} {c}");
    }
}
