#include "net/watch_lines.h"

#include <QTest>

#include <string>
#include <vector>

using namespace topodeck;

namespace {

// Feeds `chunks` in order and collects the lines; stops when `stopAfter` lines were taken.
std::vector<std::string> split(const std::vector<std::string>& chunks, std::size_t stopAfter = SIZE_MAX,
                               bool* stopped = nullptr) {
    WatchLineSplitter splitter;
    std::vector<std::string> lines;
    for (const std::string& chunk : chunks) {
        const bool more = splitter.feed(chunk, [&](std::string& line) {
            lines.push_back(line);
            return lines.size() < stopAfter;
        });
        if (!more) {
            if (stopped) *stopped = true;
            break;
        }
    }
    return lines;
}

} // namespace

class WatchLinesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void wholeLinesInOneChunk() {
        QCOMPARE(split({"{\"a\":1}\n{\"b\":2}\n"}), (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"}));
    }

    void linesCutAcrossChunksAreJoined() {
        QCOMPARE(split({"{\"a\"", ":1}\n{", "\"b\":2}", "\n"}), (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"}));
        // One byte at a time.
        std::vector<std::string> bytes;
        for (char c : std::string("x\ny\n")) bytes.emplace_back(1, c);
        QCOMPARE(split(bytes), (std::vector<std::string>{"x", "y"}));
    }

    void emptyLinesAreSkippedAndAnUnfinishedLineWaits() {
        WatchLineSplitter splitter;
        std::vector<std::string> lines;
        const auto take = [&](std::string& line) {
            lines.push_back(line);
            return true;
        };
        QVERIFY(splitter.feed("\n\nfirst\n\npart", take));
        QCOMPARE(lines, std::vector<std::string>{"first"});
        QCOMPARE(splitter.pendingSize(), std::size_t(4));
        QVERIFY(splitter.feed("ial\n", take));
        QCOMPARE(lines, (std::vector<std::string>{"first", "partial"}));
        QCOMPARE(splitter.pendingSize(), std::size_t(0));
    }

    void falseFromTheCallerStops() {
        bool stopped = false;
        QCOMPARE(split({"a\nb\nc\n", "d\n"}, 2, &stopped), (std::vector<std::string>{"a", "b"}));
        QVERIFY(stopped);
    }
};

QTEST_APPLESS_MAIN(WatchLinesTest)
#include "test_watch_lines.moc"
