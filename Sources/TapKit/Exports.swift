// What a script gets with `import TapKit`: the analysis modules and the latency pipeline.
// This module only re-exports; the code lives in the modules below.
@_exported import TapAudio
@_exported import TapData
@_exported import TapLatency
@_exported import TapMatching
@_exported import TapOnsets
@_exported import TapStatistics
