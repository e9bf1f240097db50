# TapKit: `make demo` analyses the bundled example data, `make test` runs every test (then the
# signal checks on the release binary, Scripts/check-release-signals).
SWIFT ?= swift
RELEASE = .build/release

.PHONY: deps build demo test bench fixtures clean

deps:
	@Scripts/install-deps

build: deps
	$(SWIFT) build -c release --product tapkit

demo: build
	$(RELEASE)/tapkit latency Fixtures/data

test: deps
	Scripts/clear-stale-jack
	$(SWIFT) test
	Scripts/check-release-signals

bench: deps
	WITH_PEERS=1 Scripts/install-deps
	Scripts/bench

fixtures: build
	Scripts/regenerate-fixtures

clean:
	rm -rf .build
