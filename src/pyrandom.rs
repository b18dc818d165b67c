//! Python's `random.Random`, reproduced bit for bit (MT19937 with CPython's integer seeding), because
//! lm-evaluation-harness draws with it: few-shot examples (`Random(seed).sample`, seed 1234 by
//! default) and bootstrap resamples (`Random(i).choices`). Matching its draws is what makes our
//! few-shot prompts and standard errors equal to lm-eval's.

/// Python's `random.Random`: MT19937 with CPython's integer seeding and `random()`.
#[derive(Clone)]
pub struct PyRandom {
    mt: Box<[u32; 624]>,
    index: usize,
}

impl PyRandom {
    const N: usize = 624;
    const M: usize = 397;

    /// `random.Random(seed)` for a non-negative integer seed (CPython `random_seed`: the absolute
    /// value split into 32-bit words, least significant first, fed to `init_by_array`).
    pub fn new(seed: u64) -> Self {
        let key: Vec<u32> = if seed == 0 {
            vec![0]
        } else if seed >> 32 == 0 {
            vec![seed as u32]
        } else {
            vec![seed as u32, (seed >> 32) as u32]
        };
        let mut r = PyRandom { mt: Box::new([0; 624]), index: Self::N };
        r.init_by_array(&key);
        r
    }

    fn init_genrand(&mut self, s: u32) {
        self.mt[0] = s;
        for i in 1..Self::N {
            let prev = self.mt[i - 1];
            self.mt[i] = 1_812_433_253u32.wrapping_mul(prev ^ (prev >> 30)).wrapping_add(i as u32);
        }
        self.index = Self::N;
    }

    fn init_by_array(&mut self, key: &[u32]) {
        self.init_genrand(19_650_218);
        let n = Self::N;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..n.max(key.len()) {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= n {
                self.mt[0] = self.mt[n - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..n - 1 {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= n {
                self.mt[0] = self.mt[n - 1];
                i = 1;
            }
        }
        self.mt[0] = 0x8000_0000;
    }

    /// The next 32-bit output (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        let (n, m) = (Self::N, Self::M);
        if self.index >= n {
            for k in 0..n {
                let y = (self.mt[k] & UPPER) | (self.mt[(k + 1) % n] & LOWER);
                let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
                self.mt[k] = self.mt[(k + m) % n] ^ (y >> 1) ^ mag;
            }
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        y
    }

    /// `random.random()`: 53 random bits in [0, 1).
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// The indices `random.choices(population, k=k)` picks from a population of `n` (no weights):
    /// `floor(random() * n)` each.
    pub fn choices_indices(&mut self, n: usize, k: usize) -> Vec<usize> {
        let nf = n as f64;
        (0..k).map(|_| (self.random() * nf).floor() as usize).collect()
    }

    /// `_randbelow_with_getrandbits(n)` for 0 < n < 2^32.
    fn randbelow(&mut self, n: usize) -> usize {
        let k = usize::BITS - n.leading_zeros();
        loop {
            let r = (self.next_u32() >> (32 - k)) as usize;
            if r < n {
                return r;
            }
        }
    }

    /// `sorted(random.Random(seed).sample(range(n), min(k, n)))`: a seeded random subset of `n`
    /// documents kept in their order (the page's and `eval --sample`'s).
    pub fn sorted_sample(seed: u64, n: usize, k: usize) -> Vec<usize> {
        let mut picked = PyRandom::new(seed).sample(n, k.min(n));
        picked.sort_unstable();
        picked
    }

    /// The indices `random.sample(range(n), k)` returns, in order.
    pub fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        assert!(k <= n, "sample larger than population");
        let mut setsize = 21usize;
        if k > 5 {
            // 4 ** ceil(log(k * 3, 4))
            let e = ((k * 3) as f64).ln() / 4f64.ln();
            setsize += 4usize.pow(e.ceil() as u32);
        }
        let mut result = Vec::with_capacity(k);
        if n <= setsize {
            let mut pool: Vec<usize> = (0..n).collect();
            for i in 0..k {
                let j = self.randbelow(n - i);
                result.push(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            let mut selected = std::collections::HashSet::new();
            for _ in 0..k {
                let mut j = self.randbelow(n);
                while selected.contains(&j) {
                    j = self.randbelow(n);
                }
                selected.insert(j);
                result.push(j);
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_cpython() {
        // python3 -c "import random; print(random.Random(1234).sample(range(10), 3))" -> [7, 1, 0]
        // r = random.Random(1234); r.sample(range(1000), 5), r.sample(range(7), 7), r.sample(range(40), 6)
        let mut r = PyRandom::new(1234);
        assert_eq!(r.sample(10, 3), vec![7, 1, 0]);
        let mut r = PyRandom::new(1234);
        assert_eq!(r.sample(1000, 5), vec![989, 796, 451, 119, 7]);
        assert_eq!(r.sample(7, 7), vec![0, 4, 6, 5, 3, 1, 2]);
        assert_eq!(r.sample(40, 6), vec![1, 39, 38, 22, 30, 29]);
        // random.Random(0).sample(range(5), 2) -> [3, 4]
        assert_eq!(PyRandom::new(0).sample(5, 2), vec![3, 4]);
    }
}
