// What a script gets with `import TapKit`: the analysis modules and the pipelines.
@_exported import TapAudio
@_exported import TapData
@_exported import TapMatching
@_exported import TapOnsets
@_exported import TapStatistics
