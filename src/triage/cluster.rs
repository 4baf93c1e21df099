//! Clustering beyond exact signatures: CASR's method (the Position Dependent Model of
//! ReBucket, complete linkage, cut at 0.3) over the meaningful frames, with two additions
//! from the issue: crashes of different crash types never merge (ClusterFuzz keeps the crash
//! type in its state), and two crashes sharing a finding on the same function merge whatever
//! the frames above say. docs/triage.md explains the choice against satyr and ClusterFuzz.

use std::collections::BTreeMap;

/// CASR's PDM coefficients (libcasr `stacktrace.rs`): `c` weighs depth, `o` the offset
/// between the two positions.
const PDM_C: f64 = 0.04;
const PDM_O: f64 = 0.13;
/// CASR's cut for complete linkage.
pub const THRESHOLD: f64 = 0.3;
/// Frames compared per crash (the meaningful frames, innermost first).
pub const MAX_KEY_FRAMES: usize = 16;
/// Distinct crash keys clustered together at most; past it a crash type's keys fall back to
/// exact signatures (an n² matrix of this size is 16 MB).
pub const MAX_CLUSTER_KEYS: usize = 2000;

/// What clustering looks at for one crash (many crashes share one key).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ClusterKey {
    pub crash_type: String,
    pub frames: Vec<String>,
    /// `rule@function` of the crash's error/warning findings.
    pub findings: Vec<String>,
    /// The exact signature id (the fallback cluster).
    pub signature: String,
}

/// PDM distance in [0, 1] between two frame lists (0 = identical). CASR's formula:
/// `1 - M[n][m] / Σ_{i=1..min(n,m)} e^{-c·i}` where `M` is the best alignment with
/// `e^{-c·min(i,j)} · e^{-o·|i-j|}` per matched frame.
pub fn pdm_distance(a: &[String], b: &[String]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return if a.is_empty() && b.is_empty() { 0.0 } else { 1.0 };
    }
    let (n, m) = (a.len(), b.len());
    let mut prev = vec![0.0f64; m + 1];
    let mut cur = vec![0.0f64; m + 1];
    for i in 1..=n {
        for j in 1..=m {
            let cost = if a[i - 1] == b[j - 1] {
                (-(PDM_C * i.min(j) as f64) - PDM_O * i.abs_diff(j) as f64).exp()
            } else {
                0.0
            };
            cur[j] = prev[j].max(cur[j - 1]).max(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    let norm: f64 = (1..=n.min(m)).map(|i| (-PDM_C * i as f64).exp()).sum();
    (1.0 - prev[m] / norm).clamp(0.0, 1.0)
}

/// The distance clustering uses.
pub fn distance(a: &ClusterKey, b: &ClusterKey) -> f64 {
    if !super::signature::compatible_types(&a.crash_type, &b.crash_type) {
        return 1.0;
    }
    pdm_distance(&a.frames, &b.frames)
}

/// Complete-linkage agglomerative clustering cut at `threshold`. Returns a cluster index per
/// key. Distances only grow under complete linkage, so each row keeps its nearest neighbour
/// and only rows that pointed at a merged pair are rescanned.
pub fn complete_linkage(keys: &[ClusterKey], threshold: f64) -> Vec<usize> {
    let n = keys.len();
    let mut label: Vec<usize> = (0..n).collect();
    if n < 2 {
        return label;
    }
    let mut d = vec![0f32; n * n];
    for i in 0..n {
        for j in (i + 1)..n {
            let x = distance(&keys[i], &keys[j]) as f32;
            d[i * n + j] = x;
            d[j * n + i] = x;
        }
    }
    let mut active = vec![true; n];
    let nearest = |d: &[f32], active: &[bool], i: usize| -> (usize, f32) {
        let mut best = (usize::MAX, f32::INFINITY);
        for j in 0..n {
            if j != i && active[j] && d[i * n + j] < best.1 {
                best = (j, d[i * n + j]);
            }
        }
        best
    };
    let mut nn: Vec<(usize, f32)> = (0..n).map(|i| nearest(&d, &active, i)).collect();
    loop {
        // The closest active pair.
        let mut best = (usize::MAX, usize::MAX, f32::INFINITY);
        for i in 0..n {
            if active[i] && nn[i].1 < best.2 {
                best = (i, nn[i].0, nn[i].1);
            }
        }
        if best.0 == usize::MAX || f64::from(best.2) > threshold {
            break;
        }
        let (i, j) = (best.0.min(best.1), best.0.max(best.1));
        active[j] = false;
        for l in label.iter_mut() {
            if *l == j {
                *l = i;
            }
        }
        for k in 0..n {
            if active[k] && k != i {
                let x = d[i * n + k].max(d[j * n + k]);
                d[i * n + k] = x;
                d[k * n + i] = x;
            }
        }
        nn[i] = nearest(&d, &active, i);
        for k in 0..n {
            if active[k] && k != i && (nn[k].0 == i || nn[k].0 == j) {
                nn[k] = nearest(&d, &active, k);
            }
        }
    }
    // Labels are representatives' indices; make them 0..clusters in first-seen order.
    let mut renum = BTreeMap::new();
    let mut out = Vec::with_capacity(n);
    for l in label {
        let next = renum.len();
        out.push(*renum.entry(l).or_insert(next));
    }
    out
}

/// Clusters keys: blocks by signal (incompatible crash types never merge), complete linkage
/// inside each block (exact signatures for a block above [`MAX_CLUSTER_KEYS`]), then clusters
/// whose crashes share a finding on the same function (`rule@function`) and have compatible
/// crash types are joined, whatever their frames above say. Returns the
/// cluster id of each key: the smallest signature id among the cluster's members, so ids are
/// content-derived and the same whichever machine or order produced them.
pub fn cluster_ids(keys: &[ClusterKey]) -> (Vec<String>, Vec<String>) {
    let mut notes = Vec::new();
    let mut out = vec![String::new(); keys.len()];
    let mut blocks: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, k) in keys.iter().enumerate() {
        blocks.entry(super::signature::signal_of_type(&k.crash_type)).or_default().push(i);
    }
    for (ty, idx) in blocks {
        if idx.len() > MAX_CLUSTER_KEYS {
            notes.push(format!(
                "{} distinct stacks of type {ty}: more than {MAX_CLUSTER_KEYS}, clustered by exact signature only",
                idx.len()
            ));
            for i in idx {
                out[i] = keys[i].signature.clone();
            }
            continue;
        }
        let block: Vec<ClusterKey> = idx.iter().map(|&i| keys[i].clone()).collect();
        let mut labels = complete_linkage(&block, THRESHOLD);
        join_by_findings(&block, &mut labels);
        let mut min_sig: BTreeMap<usize, &str> = BTreeMap::new();
        for (pos, &l) in labels.iter().enumerate() {
            let s = block[pos].signature.as_str();
            min_sig.entry(l).and_modify(|m| *m = (*m).min(s)).or_insert(s);
        }
        for (pos, &l) in labels.iter().enumerate() {
            out[idx[pos]] = min_sig[&l].to_string();
        }
    }
    (out, notes)
}

/// Union of clusters that share a finding key between members of compatible crash types.
fn join_by_findings(keys: &[ClusterKey], labels: &mut [usize]) {
    let mut parent: Vec<usize> = (0..labels.len().max(1) + keys.len()).collect();
    fn find(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    let mut by_finding: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, k) in keys.iter().enumerate() {
        for f in &k.findings {
            by_finding.entry(f.as_str()).or_default().push(i);
        }
    }
    for members in by_finding.values() {
        for (x, &a) in members.iter().enumerate() {
            for &b in &members[x + 1..] {
                if super::signature::compatible_types(&keys[a].crash_type, &keys[b].crash_type) {
                    let (ra, rb) = (find(&mut parent, labels[a]), find(&mut parent, labels[b]));
                    if ra != rb {
                        parent[ra.max(rb)] = ra.min(rb);
                    }
                }
            }
        }
    }
    for l in labels.iter_mut() {
        *l = find(&mut parent, *l);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    fn key(ty: &str, frames: &[&str], findings: &[&str], sig: &str) -> ClusterKey {
        ClusterKey { crash_type: ty.into(), frames: v(frames), findings: v(findings), signature: sig.into() }
    }

    #[test]
    fn pdm_values() {
        assert_eq!(pdm_distance(&v(&["a", "b", "c"]), &v(&["a", "b", "c"])), 0.0);
        assert_eq!(pdm_distance(&v(&["a"]), &v(&["b"])), 1.0);
        // One of three top frames differs at depth 3: e^{-0.12} / Σ e^{-0.04 i} missing.
        let d = pdm_distance(&v(&["a", "b", "c"]), &v(&["a", "b", "x"]));
        let norm: f64 = (1..=3).map(|i| (-0.04 * i as f64).exp()).sum();
        assert!((d - (-0.12f64).exp() / norm).abs() < 1e-12, "{d}");
        // A difference at the top costs more than one at the bottom.
        assert!(
            pdm_distance(&v(&["x", "b", "c", "d"]), &v(&["a", "b", "c", "d"]))
                > pdm_distance(&v(&["a", "b", "c", "x"]), &v(&["a", "b", "c", "d"]))
        );
    }

    #[test]
    fn linkage_cut_and_rules() {
        let keys = vec![
            key("SIGSEGV/null", &["f", "g", "h", "main"], &[], "s1"),
            key("SIGSEGV/null", &["f", "g", "h", "other", "main"], &[], "s2"),
            key("SIGABRT/assert", &["f", "g", "h", "main"], &[], "s3"),
            key("SIGSEGV/null", &["k", "l", "main"], &[], "s4"),
            key("SIGSEGV/null", &["k", "m", "n", "main"], &["null-dereference@k"], "s5"),
            key("SIGSEGV/null", &["k", "p", "q", "r", "main"], &["null-dereference@k"], "s6"),
        ];
        let (ids, notes) = cluster_ids(&keys);
        assert!(notes.is_empty());
        assert_eq!(ids[0], "s1");
        assert_eq!(ids[1], "s1");
        assert_eq!(ids[2], "s3"); // other crash type
        assert_eq!(ids[4], "s5");
        assert_eq!(ids[5], "s5"); // same finding on the same function
        // s4 is within 0.3 of neither s5 nor s6 under complete linkage.
        assert_eq!(ids[3], "s4");
    }
}
