#!/usr/bin/env python3
"""Places the tap starts of free_tapping_record.wav by the rule in README.md.

The 14 approximate times below were read off a plot of the whole recording (waveform,
high-passed envelope, spectrogram); this script only places each start precisely. It does
not use TapKit. Needs numpy, scipy and soundfile. Prints the labels CSV on stdout.

    Fixtures/real/label-taps.py Fixtures/real/free_tapping_record.wav > labels.csv
"""
import sys

import numpy as np
import soundfile as sf
from scipy.signal import butter, sosfilt

# Where each tap was seen on the overview plot (s, to about 10 ms).
APPROXIMATE = [0.446, 1.034, 1.596, 2.141, 2.680, 3.238, 3.783,
               4.356, 4.914, 5.493, 6.060, 6.609, 7.163, 7.719]
K = 5.0                 # threshold, in background RMS
REFINE_SAMPLES = 8      # how far back of the high-pass crossing the difference may move it


def main(path):
    x, sr = sf.read(path, dtype="float64")
    if x.ndim > 1:
        x = x[:, 0]
    ms = sr // 1000
    # Causal, so that nothing of the tap appears before it starts.
    h = sosfilt(butter(4, 1000, "highpass", fs=sr, output="sos"), x)
    d = np.diff(x, prepend=x[0])
    print("time")
    for approx in APPROXIMATE:
        c = int(round(approx * sr))
        peak = c - 5 * ms + int(np.argmax(np.abs(h[c - 5 * ms:c + 20 * ms])))
        quiet = slice(peak - 60 * ms, peak - 10 * ms)   # the 50 ms before the tap
        sigma_h = np.sqrt(np.mean(h[quiet] ** 2))
        sigma_d = np.sqrt(np.mean(d[quiet] ** 2))
        lo = peak - 10 * ms
        crossing = lo + int(np.nonzero(np.abs(h[lo:peak + 1]) > K * sigma_h)[0][0])
        back = crossing - REFINE_SAMPLES
        early = np.nonzero(np.abs(d[back:crossing + 1]) > K * sigma_d)[0]
        start = back + int(early[0]) if len(early) else crossing
        print(f"{start / sr:.6f}")
        print(f"{approx:.3f}: high-pass crossing {crossing / sr:.6f}, start {start / sr:.6f} "
              f"({crossing - start} samples earlier), loudest {1000 * (peak - start) / sr:.1f} ms "
              f"after the start, {20 * np.log10(abs(h[peak]) / sigma_h):.1f} dB over the "
              f"background", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
