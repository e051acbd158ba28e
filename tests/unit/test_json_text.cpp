#include "core/text/json_text.h"
#include "support/test_program.h"

#include <QTest>

using namespace topodeck;

class TestJsonText : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void escapes_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("empty") << QByteArray() << QByteArray("\"\"");
        QTest::newRow("plain") << QByteArray("rack-1") << QByteArray("\"rack-1\"");
        QTest::newRow("long plain") << QByteArray("gb200-su1-r03-n07.example.com") << QByteArray("\"gb200-su1-r03-n07.example.com\"");
        QTest::newRow("quote and backslash") << QByteArray("a\"b\\c") << QByteArray("\"a\\\"b\\\\c\"");
        QTest::newRow("escape after a clean word") << QByteArray("abcdefghij\"k") << QByteArray("\"abcdefghij\\\"k\"");
        QTest::newRow("named controls") << QByteArray("\b\f\n\r\t") << QByteArray("\"\\b\\f\\n\\r\\t\"");
        QTest::newRow("other control") << QByteArray("x\x01y") << QByteArray("\"x\\u0001y\"");
        QTest::newRow("nul") << QByteArray("a\0b", 3) << QByteArray("\"a\\u0000b\"");
        QTest::newRow("two-byte utf-8") << QByteArray("n\xc3\xbc") << QByteArray("\"n\xc3\xbc\"");
        QTest::newRow("korean") << QByteArray("\xeb\x9e\x99 rack") << QByteArray("\"\xeb\x9e\x99 rack\"");
        QTest::newRow("four-byte utf-8") << QByteArray("\xf0\x9f\x9a\x80") << QByteArray("\"\xf0\x9f\x9a\x80\"");
        QTest::newRow("stray continuation") << QByteArray("a\x80z") << QByteArray("\"a\\ufffdz\"");
        QTest::newRow("truncated sequence") << QByteArray("a\xe2\x82") << QByteArray("\"a\\ufffd\\ufffd\"");
        QTest::newRow("overlong") << QByteArray("\xc0\xaf") << QByteArray("\"\\ufffd\\ufffd\"");
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << QByteArray("\"\\ufffd\\ufffd\\ufffd\"");
    }
    void escapes() {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, expected);
        std::string out = "prefix:";
        appendJsonString(out, std::string_view(input.constData(), static_cast<std::size_t>(input.size())));
        QCOMPARE(QByteArray::fromStdString(out), QByteArray("prefix:") + expected);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestJsonText)
#include "test_json_text.moc"
