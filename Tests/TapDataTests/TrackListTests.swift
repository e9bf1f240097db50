import Foundation
import Testing
@testable import TapData

@Suite struct TrackListTests {
    let path = "experiment/trackList.xml"

    func parse(_ text: String) throws(TapDataError) -> [String] {
        try TrackList.parse(text, path: path)
    }

    @Test func readsFileNameElementsInOrder() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <tracklist>
              <track><title>Metronome</title><filename>click_120.wav</filename></track>
              <track>
                <filename>
                  song two.wav
                </filename>
              </track>
              <filename>third.aiff</filename>
            </tracklist>
            """
        #expect(try parse(xml) == ["click_120.wav", "song two.wav", "third.aiff"])
    }

    @Test func entriesKeepTheLineTheirTagOpensOn() throws {
        try withTemporaryDirectory { directory in
            let file = directory + "/trackList.xml"
            try "<tracklist>\n  <!-- a\ncomment -->\n  <track><filename>a.wav</filename></track>\n  <filename>\n  b.wav\n</filename>\n</tracklist>\n"
                .write(toFile: file, atomically: true, encoding: .utf8)
            let entries = try TrackList.readEntries(file)
            #expect(entries.map(\.name) == ["a.wav", "b.wav"])
            #expect(entries.map(\.line) == [4, 5])
        }
    }

    @Test func noElementsIsAnEmptyList() throws {
        #expect(try parse("") == [])
        #expect(try parse("<tracklist/>") == [])
    }

    @Test func decodesEntities() throws {
        #expect(try parse("<filename>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;.wav</filename>")
            == ["a & b <c> \"d\" 'e'.wav"])
        #expect(try parse("<filename>&#65;&#x42;&#X43;.wav</filename>") == ["ABC.wav"])
        // Unknown entities and stray ampersands stay as written.
        #expect(try parse("<filename>&foo; & bar.wav</filename>") == ["&foo; & bar.wav"])
    }

    @Test func toleratesAttributesCommentsAndCDATA() throws {
        let xml = """
            <!-- <filename>commented.wav</filename> -->
            <filename kind="stimulus">a.wav</filename >
            <filenames>not-me.wav</filenames>
            <filename><![CDATA[b&c<d>.wav]]></filename>
            <note><![CDATA[<filename>hidden.wav</filename>]]></note>
            """
        #expect(try parse(xml) == ["a.wav", "b&c<d>.wav"])
    }

    @Test func unterminatedAtEndOfFileNamesTheOpeningLine() {
        let xml = "<tracklist>\n<filename>a.wav</filename>\n\n<filename>b.wav\n</tracklist>\n"
        let error = caught { () throws(TapDataError) in try parse(xml) }
        #expect(error?.line == 4)
        #expect(error?.description.hasPrefix("\(path):4: unterminated <filename> element") == true)
    }

    @Test func unterminatedBeforeTheNextElement() {
        let xml = "<filename>a.wav\n<filename>b.wav</filename>\n"
        let error = caught { () throws(TapDataError) in try parse(xml) }
        #expect(error?.line == 1)
        #expect(error?.description.contains("before the next <filename> on line 2") == true)
    }

    @Test func unclosedTagIsUnterminated() {
        #expect(caught { () throws(TapDataError) in try parse("\n\n<filename") }?.line == 3)
        #expect(caught { () throws(TapDataError) in try parse("<filename>a</filename\n") }?.line == 1)
    }

    @Test func emptyElementsAreErrors() {
        let empty = caught { () throws(TapDataError) in try parse("<filename>a</filename>\n<filename>  </filename>") }
        #expect(empty == .malformedLine(path: path, line: 2, message: "empty <filename> element"))
        let selfClosing = caught { () throws(TapDataError) in try parse("\n\n<filename/>") }
        #expect(selfClosing == .malformedLine(path: path, line: 3, message: "empty <filename> element"))
    }

    @Test func unterminatedCommentIsAnError() {
        let error = caught { () throws(TapDataError) in try parse("<filename>a</filename>\n<!-- oops\n") }
        #expect(error == .malformedLine(path: path, line: 2, message: "unterminated comment <!--"))
    }

    @Test func writeThenReadRoundTrips() throws {
        try withTemporaryDirectory { dir in
            let names = ["click.wav", "a&b<c>d.wav", "quote\"'.flac", "ünïcødé ♪.aiff", "sub/dir.wav"]
            let path = dir + "/trackList.xml"
            try TrackList.write(names, to: path)
            #expect(try TrackList.read(path) == names)
        }
    }

    @Test func formatEscapesMarkup() {
        #expect(TrackList.format(["a&b.wav"]).contains("<filename>a&amp;b.wav</filename>"))
        #expect(TrackList.format([]).hasSuffix("<trackList>\n</trackList>\n"))
    }

    @Test func writeRejectsNamesTheReaderWouldChange() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/trackList.xml"
            #expect(throws: TapDataError.invalidValue(path: path, index: 1, message: "empty file name")) {
                try TrackList.write(["a.wav", ""], to: path)
            }
            let error = caught { () throws(TapDataError) in try TrackList.write([" a.wav"], to: path) }
            guard case .invalidValue(_, 0, _)? = error else {
                Issue.record("expected invalidValue at 0, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func readMissingAndInvalidFiles() throws {
        try withTemporaryDirectory { dir in
            let missing = dir + "/trackList.xml"
            #expect(throws: TapDataError.notFound(path: missing)) { try TrackList.read(missing) }
            let bad = try makeFile(dir, "bad.xml", bytes: [0x3C, 0x61, 0x3E, 0x0A, 0xC3, 0x28])
            #expect(throws: TapDataError.invalidUTF8(path: bad, line: 2)) { try TrackList.read(bad) }
        }
    }

    /// Stimulus names stay inside the experiment folder: subfolders are fine, `..` and absolute
    /// paths are refused at their line, when reading and when writing.
    @Test func namesStayInsideTheExperimentFolder() throws {
        #expect(try parse("<filename>stimuli/a.wav</filename>\n<filename>b..c.wav</filename>") == ["stimuli/a.wav", "b..c.wav"])
        for (name, words) in [("../secret.wav", "leaves the experiment folder"), ("stimuli/../../x.wav", "leaves the experiment folder"),
                              ("/etc/passwd", "absolute path")] {
            do {
                _ = try parse("<trackList>\n<filename>ok.wav</filename>\n<filename>\(name)</filename>\n</trackList>")
                Issue.record("\(name) was accepted")
            } catch {
                guard case .malformedLine(_, let line, _) = error else { Issue.record("\(error)"); continue }
                #expect(line == 3)
                #expect(error.description.contains(words), "\(error)")
            }
            #expect(throws: TapDataError.self) { try TrackList.write([name], to: NSTemporaryDirectory() + "never.xml") }
        }
    }
}
