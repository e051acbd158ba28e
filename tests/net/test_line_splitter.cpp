#include "net/line_splitter.h"
#include "support/test_program.h"

#include <QTest>

#include <cstdint>
#include <string>
#include <vector>

using namespace topodeck;

namespace {

struct Split {
    std::vector<std::string> lines;
    LineSplitter::Outcome last = LineSplitter::Outcome::More;
};

// Feeds `chunks` in order (lines at most maxLine long) and collects the lines; onLine stops once
// `stopAfter` lines were taken.
Split split(const std::vector<std::string>& chunks, std::size_t maxLine = SIZE_MAX, std::size_t stopAfter = SIZE_MAX) {
    LineSplitter splitter;
    Split out;
    for (const std::string& chunk : chunks) {
        out.last = splitter.feed(chunk, maxLine, [&](std::string& line) {
            out.lines.push_back(line);
            return out.lines.size() < stopAfter;
        });
        if (out.last != LineSplitter::Outcome::More) break;
    }
    return out;
}

using Lines = std::vector<std::string>;

} // namespace

class LineSplitterTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void wholeLinesInOneChunk() {
        QCOMPARE(split({"{\"a\":1}\n{\"b\":2}\n"}).lines, (Lines{"{\"a\":1}", "{\"b\":2}"}));
    }

    void linesCutAcrossChunksAreJoined() {
        QCOMPARE(split({"{\"a\"", ":1}\n{", "\"b\":2}", "\n"}).lines, (Lines{"{\"a\":1}", "{\"b\":2}"}));
        std::vector<std::string> bytes; // one byte at a time
        for (char c : std::string("x\ny\n")) bytes.emplace_back(1, c);
        QCOMPARE(split(bytes).lines, (Lines{"x", "y"}));
    }

    void emptyLinesAreSkippedAndAnUnfinishedLineWaits() {
        LineSplitter splitter;
        Lines lines;
        const auto take = [&](std::string& line) {
            lines.push_back(line);
            return true;
        };
        QVERIFY(splitter.feed("\n\nfirst\n\npart", 100, take) == LineSplitter::Outcome::More);
        QCOMPARE(lines, Lines{"first"});
        QCOMPARE(splitter.pendingSize(), std::size_t(4));
        QVERIFY(splitter.feed("ial\n", 100, take) == LineSplitter::Outcome::More);
        QCOMPARE(lines, (Lines{"first", "partial"}));
        QCOMPARE(splitter.pendingSize(), std::size_t(0));
    }

    void falseFromTheCallerStops() {
        const Split out = split({"a\nb\nc\n", "d\n"}, SIZE_MAX, 2);
        QCOMPARE(out.lines, (Lines{"a", "b"}));
        QVERIFY(out.last == LineSplitter::Outcome::Stopped);
    }

    void aLineLongerThanTheLimitIsRefused() {
        QCOMPARE(split({"abcd\nefgh\n"}, 4).lines, (Lines{"abcd", "efgh"})); // exactly the limit
        const Split out = split({"ab\nabc", "de\nnever\n"}, 4);
        QCOMPARE(out.lines, Lines{"ab"});
        QVERIFY(out.last == LineSplitter::Outcome::TooLong);
    }
};

TOPODECK_TEST_APPLESS_MAIN(LineSplitterTest)
#include "test_line_splitter.moc"
