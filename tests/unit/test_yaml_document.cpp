// The YAML guard: what yaml-cpp 0.7 loops or overflows on is refused first, with the file and
// place; ordinary YAML, JSON and multi-document files still load.
#include "core/formats/yaml_document.h"
#include "support/test_program.h"

#include <QtTest>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace topodeck;

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

std::string fileText(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// Each level's anchor is aliased ten times by the next: 10^levels nodes when expanded.
std::string billionLaughs(int levels) {
    std::string text = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i <= levels; ++i) {
        const std::string previous = "*l" + std::to_string(i - 1);
        text += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
        for (int j = 0; j < 10; ++j) text += (j ? ", " : "") + previous;
        text += "]\n";
    }
    return text;
}

} // namespace

class TestYamlDocument : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Inputs yaml-cpp 0.7 loops forever on (upstream #1040, #499): single edits of our own
    // tests/data/gangs/job.json, and a file that is just ",". Each is refused at once.
    void loopingInputsAreRefused_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("where");
        const std::filesystem::path folder =
            std::filesystem::path(TOPODECK_TEST_DATA_DIR) / "fuzz-regressions/yaml-loops";
        const std::pair<const char*, const char*> cases[] = {
            {"comma.yaml", "comma.yaml:1:1: invalid YAML: "},
            {"job-leading-comma.json", "job-leading-comma.json:1:1: invalid YAML: "},
            {"job-brace-for-colon.json", "job-brace-for-colon.json:2:17: invalid YAML: "},
            {"job-ampersand-for-brace.json", "job-ampersand-for-brace.json:4:16: invalid YAML: "},
            {"job-trailing-comma.json", "job-trailing-comma.json:12:2: invalid YAML: "},
            // Found by the change_plan target: libyaml reads the anchor "kind", yaml-cpp "kind:s\"".
            {"anchor-runs-into-colon.yaml", "anchor-runs-into-colon.yaml:1:1: invalid YAML: &kind runs on into ':'"},
            // Also found by it: a top scalar with an anchor, continued on a line that starts with ','.
            {"root-scalar-continues-with-comma.yaml",
             "root-scalar-continues-with-comma.yaml:1:1: invalid YAML: a document that is one plain scalar"},
        };
        std::size_t files = 0;
        for (const auto& entry : std::filesystem::directory_iterator(folder)) {
            (void)entry;
            ++files;
        }
        QCOMPARE(files, std::size(cases)); // a new regression file gets a row here
        for (const auto& [name, where] : cases) QTest::newRow(name) << qs((folder / name).string()) << qs(where);
    }
    void loopingInputsAreRefused() {
        QFETCH(QString, path);
        QFETCH(QString, where);
        const std::string text = fileText(path.toStdString());
        const std::string name = std::filesystem::path(path.toStdString()).filename().string();
        const auto started = std::chrono::steady_clock::now();
        Result<std::vector<YAML::Node>> loaded = loadYamlDocuments(text, name);
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(1));
        QVERIFY(!loaded);
        QVERIFY2(qs(loaded.error().message).startsWith(where), loaded.error().message.c_str());
    }

    void ordinaryDocumentsLoad() {
        Result<std::vector<YAML::Node>> loaded =
            loadYamlDocuments("a: 1\nb: [x, {c: d}]\n---\n{\"json\": true, \"list\": [1, 2]}\n---\n", "two.yaml");
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        QCOMPARE(loaded->size(), std::size_t(3)); // the last document is empty
        QCOMPARE((*loaded)[0]["b"][1]["c"].Scalar(), std::string("d"));
        QCOMPARE((*loaded)[1]["list"].size(), std::size_t(2));

        Result<YAML::Node> empty = loadYamlDocument("", "empty.yaml");
        QVERIFY(empty.ok());
        QVERIFY(!*empty || empty->IsNull());
        Result<YAML::Node> first = loadYamlDocument("kind: A\n---\nkind: B\n", "many.yaml");
        QVERIFY(first.ok());
        QCOMPARE((*first)["kind"].Scalar(), std::string("A"));
    }

    // An anchor or alias name ends where both readers agree, or the text is refused.
    void anchorNamesEndWhereBothAgree() {
        for (const char* good : {"a: &x [1]\nb: *x\n", "{k: &v 1, l: *v}\n", "a: !!str &s x\nb: *s\n",
                                 "\xEF\xBB\xBFü: &u x\nv: *u\n", "- &a\n  k: v\n- *a\n", "[&e x, *e]\n",
                                 // Near the looping "&d u\n,": nested, on one line, or without an anchor.
                                 "a: &d u\n ,\n", "&d u ,\n", "u\n,\n"}) {
            Result<YAML::Node> loaded = loadYamlDocument(good, "good.yaml");
            QVERIFY2(loaded.ok(), (std::string(good) + ": " + (loaded.ok() ? "" : loaded.error().message)).c_str());
        }
        const std::pair<const char*, const char*> bad[] = {
            {"a: &kind:s x\n", "bad.yaml:1:"}, // libyaml refuses this one itself
            {"a: &x 1\nb: *x:y\n", "bad.yaml:2:4: invalid YAML: *x runs on into ':'"},
            {"ü: !t &n@x 1\n", "bad.yaml:1:"},
        };
        for (const auto& [text, error] : bad) {
            Result<YAML::Node> loaded = loadYamlDocument(text, "bad.yaml");
            QVERIFY2(!loaded, text);
            QVERIFY2(qs(loaded.error().message).startsWith(QString::fromUtf8(error)), loaded.error().message.c_str());
        }
    }

    // A key repeated in one mapping is refused, as Kubernetes refuses it ("mapping key already
    // defined"): yaml-cpp would keep one of them silently. The same key in different mappings, in
    // a sequence's items, or as a value is fine; a mapping of many keys is checked in linear time.
    void repeatedKeysAreRefused() {
        for (const char* good : {"a: 1\nb: {a: 2}\n", "- a: 1\n- a: 2\n", "a: a\nb: a\n", "{a: 1, \"b\": 2}\n",
                                 "a: 1\n---\na: 2\n", "a:\n  a: 1\n"}) {
            Result<YAML::Node> loaded = loadYamlDocument(good, "good.yaml");
            QVERIFY2(loaded.ok(), (std::string(good) + ": " + (loaded.ok() ? "" : loaded.error().message)).c_str());
        }
        const std::pair<const char*, const char*> bad[] = {
            {"kind: ResourceFlavor\nkind: Topology\n",
             "bad.yaml:2:1: invalid YAML: the key \"kind\" is repeated in its mapping (first on line 1)"},
            {"spec:\n  levels: []\n  tier: 1\n  levels: [a]\n", "bad.yaml:4:3: invalid YAML: the key \"levels\" is repeated"},
            {"{a: 1, 'a': 2}\n", "bad.yaml:1:8: invalid YAML: the key \"a\" is repeated"},
            {"- x: 1\n  y: 2\n  x: 3\n", "bad.yaml:3:3: invalid YAML: the key \"x\" is repeated"},
        };
        for (const auto& [text, error] : bad) {
            Result<YAML::Node> loaded = loadYamlDocument(text, "bad.yaml");
            QVERIFY2(!loaded, text);
            QVERIFY2(qs(loaded.error().message).startsWith(QString::fromUtf8(error)), loaded.error().message.c_str());
        }
        std::string many;
        for (int i = 0; i < 200000; ++i) many += "k" + std::to_string(i) + ": v\n";
        const auto started = std::chrono::steady_clock::now();
        QVERIFY(loadYamlDocument(many, "many.yaml").ok());
        QVERIFY(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
        Result<YAML::Node> lastRepeated = loadYamlDocument(many + "k0: again\n", "many.yaml");
        QVERIFY(!lastRepeated);
        QVERIFY2(qs(lastRepeated.error().message).startsWith(QStringLiteral("many.yaml:200001:1: invalid YAML: the key \"k0\"")),
                 lastRepeated.error().message.c_str());
    }

    // Anchors and aliases as people write them load; aliases that multiply do not.
    void aliasesAreBounded() {
        Result<YAML::Node> shared =
            loadYamlDocument("base: &gpu {nvidia.com/gpu: 8}\nnode-a: *gpu\nnode-b: *gpu\n", "a.yaml");
        QVERIFY2(shared.ok(), shared.ok() ? "" : shared.error().message.c_str());
        QCOMPARE((*shared)["node-b"]["nvidia.com/gpu"].Scalar(), std::string("8"));
        QVERIFY(loadYamlDocument(billionLaughs(4), "small-laughs.yaml").ok()); // 10^5 nodes
        Result<YAML::Node> laughs = loadYamlDocument(billionLaughs(9), "laughs.yaml");
        QVERIFY(!laughs);
        QVERIFY2(qs(laughs.error().message).startsWith(QStringLiteral("laughs.yaml:6:")),
                 laughs.error().message.c_str());
        QVERIFY(qs(laughs.error().message).contains(QStringLiteral("aliases repeat more than 1000000 nodes")));
        // yaml-cpp reports an alias of nothing.
        Result<YAML::Node> dangling = loadYamlDocument("a: *nowhere\n", "dangling.yaml");
        QVERIFY(!dangling);
        QVERIFY2(qs(dangling.error().message).startsWith(QStringLiteral("dangling.yaml:1:4: invalid YAML: ")),
                 dangling.error().message.c_str());
    }

    void nestingIsBounded_data() {
        QTest::addColumn<QString>("open");
        QTest::addColumn<QString>("close");
        QTest::addColumn<int>("tooDeep");
        QTest::newRow("flow sequences") << "["
                                        << "]" << 100000;
        QTest::newRow("flow maps") << "{a: "
                                   << "}" << 100000;
        QTest::newRow("block maps") << "a:\n"
                                    << "" << 2000; // indented: the text grows as levels squared
    }
    void nestingIsBounded() {
        QFETCH(QString, open);
        QFETCH(QString, close);
        QFETCH(int, tooDeep);
        auto nested = [&](int levels) {
            std::string text;
            for (int i = 0; i < levels; ++i) {
                if (open.endsWith(u'\n')) text += std::string(static_cast<std::size_t>(i), ' ');
                text += open.toStdString();
            }
            text += open.endsWith(u'\n') ? std::string(static_cast<std::size_t>(levels), ' ') + "x\n" : "x";
            for (int i = 0; i < levels; ++i) text += close.toStdString();
            return text;
        };
        Result<YAML::Node> fine = loadYamlDocument(nested(200), "fine.yaml");
        QVERIFY2(fine.ok(), fine.ok() ? "" : fine.error().message.c_str());
        Result<YAML::Node> deep = loadYamlDocument(nested(tooDeep), "deep.yaml");
        QVERIFY(!deep);
        QVERIFY2(qs(deep.error().message).contains(QStringLiteral(": invalid YAML: nested deeper than 256 levels")),
                 deep.error().message.c_str());
    }

    // Bytes that are not UTF-8, and control characters, never reach a name or a label.
    void encodingIsChecked() {
        Result<YAML::Node> bad = loadYamlDocument("name: gpu-1\nlabel: ab\xff\n", "bytes.yaml");
        QVERIFY(!bad);
        QVERIFY2(qs(bad.error().message).startsWith(QStringLiteral("bytes.yaml:2:10: invalid YAML: ")),
                 bad.error().message.c_str());
        QVERIFY2(qs(bad.error().message).contains(QStringLiteral("0xff")), bad.error().message.c_str());
        Result<YAML::Node> escape = loadYamlDocument("name: \x1b[2Jgpu\n", "escape.yaml");
        QVERIFY(!escape);
        QVERIFY2(qs(escape.error().message).startsWith(QStringLiteral("escape.yaml:1:7: invalid YAML: ")),
                 escape.error().message.c_str());
    }
};

TOPODECK_TEST_APPLESS_MAIN(TestYamlDocument)
#include "test_yaml_document.moc"
