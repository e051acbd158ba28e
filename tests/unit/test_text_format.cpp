// Where text stops being printable (core/text/text_format.h unprintableAt), which every reader
// asks of every name and value: checked 8 bytes at a time over plain ASCII, byte by byte
// elsewhere. Each kind of byte readers refuse or keep is put at every position of texts around
// the block size, and the answer must name exactly that position (or none), as visibleText
// escapes it.
#include "core/text/text_format.h"
#include "support/test_program.h"

#include <QtTest>

#include <string>
#include <vector>

using topodeck::unprintableAt;
using topodeck::visibleText;

namespace {

struct Insert {
    const char* name;
    std::string bytes;
    bool printable;         // kept as it is
    bool lineBreak = false; // printable only where line breaks are allowed
};

std::vector<Insert> inserts() {
    return {
        {"space", " ", true},
        {"tilde", "~", true},
        {"NUL", std::string(1, '\0'), false},
        {"ESC", "\x1b", false},
        {"unit separator", "\x1f", false},
        {"DEL", "\x7f", false},
        {"tab", "\t", false, true},
        {"line feed", "\n", false, true},
        {"carriage return", "\r", false, true},
        {"e acute (UTF-8)", "\xc3\xa9", true},
        {"euro sign (UTF-8)", "\xe2\x82\xac", true},
        {"C1 control CSI", "\xc2\x9b", false},
        {"lone continuation byte", "\x80", false},
        {"0xff", "\xff", false},
        {"truncated sequence", "\xe2\x82", false},
    };
}

} // namespace

class TestTextFormat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void unprintableAtNamesTheFirstBadByte() {
        for (const Insert& insert : inserts())
            for (const bool allowLineBreaks : {false, true})
                for (std::size_t length = 0; length <= 40; ++length)
                    for (std::size_t at = 0; at <= length; ++at) {
                        std::string text(length, 'a');
                        text.insert(at, insert.bytes);
                        const bool kept = insert.printable || (insert.lineBreak && allowLineBreaks);
                        const std::size_t expected = kept ? std::string::npos : at;
                        const std::string where = std::string(insert.name) + " at " + std::to_string(at) + " of " +
                                                  std::to_string(text.size()) +
                                                  (allowLineBreaks ? ", breaks allowed" : "");
                        QVERIFY2(unprintableAt(text, allowLineBreaks) == expected, where.c_str());
                        // What visibleText escapes starts there too.
                        if (!allowLineBreaks)
                            QVERIFY2((visibleText(text) == text) == (expected == std::string::npos), where.c_str());
                    }
    }

    void onlyTheFirstOfSeveralCounts() {
        std::string text(30, 'x');
        text[21] = '\x01';
        text[9] = '\x7f';
        QCOMPARE(unprintableAt(text), std::size_t(9));
        text[9] = 'x';
        QCOMPARE(unprintableAt(text), std::size_t(21));
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestTextFormat)
#include "test_text_format.moc"
