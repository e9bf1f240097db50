# TapKit: `make demo` analyses the bundled example data, `make test` runs every test,
# `make fuzz` runs the libFuzzer targets (RUNS inputs each; Docs/fuzzing.md).
SWIFT ?= swift
RELEASE = .build/release
RUNS ?= 1000000

.PHONY: deps build demo test bench fixtures fuzz clean

deps:
	@Scripts/install-deps

build: deps
	$(SWIFT) build -c release --product tapkit

demo: build
	$(RELEASE)/tapkit latency Fixtures/data

test: deps
	Scripts/clear-stale-jack
	$(SWIFT) test

bench: deps
	WITH_PEERS=1 Scripts/install-deps
	Scripts/bench

fuzz: deps
	RUNS=$(RUNS) SWIFT=$(SWIFT) Scripts/fuzz

fixtures: build
	Scripts/regenerate-fixtures

clean:
	rm -rf .build Fuzz/.build
