// Kubernetes label selectors: the grammar, validation of keys and values, matching, the canonical
// string, and the per-node mask the filter bar applies. Many cases restate, in this table form,
// what k8s.io/apimachinery/pkg/labels/selector_test.go checks (TestSelectorParse,
// TestSetSelectorParser, TestSelectorMatches, TestRequirementConstructor, TestToString).
#include "core/topology/label_selector.h"

#include "unit_builders.h"
#include "support/test_program.h"

#include <QtTest>

#include <string>

using namespace topodeck;

namespace {

using Op = LabelOperator;

LabelSelector parsed(const QByteArray& text) {
    Result<LabelSelector> result = LabelSelector::parse(text.toStdString());
    if (!result) qFatal("unexpected parse failure for '%s': %s", text.constData(), result.error().message.c_str());
    return *result;
}

// "a=1,b=2" as labels, sorted as Node keeps them; "" is no labels.
Labels labelsOf(const QByteArray& text) {
    Node node;
    for (const QByteArray& pair : text.split(',')) {
        if (pair.isEmpty()) continue;
        const qsizetype eq = pair.indexOf('=');
        node.setLabel(pair.left(eq).toStdString(), pair.mid(eq + 1).toStdString());
    }
    return node.labels;
}

} // namespace

class TestLabelSelector : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Input, the canonical string it prints, and the number of requirements.
    void parseValid_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("canonical");
        QTest::addColumn<int>("requirements");
        auto add = [](const char* name, const char* input, const char* canonical, int requirements) {
            QTest::newRow(name) << QByteArray(input) << QByteArray(canonical) << requirements;
        };
        add("empty", "", "", 0);
        add("blank", " \t\r\n ", "", 0);
        add("equals", "x=a", "x=a", 1);
        add("double equals", "x==a", "x=a", 1);
        add("not equals", "x!=a", "x!=a", 1);
        add("exists", "x", "x", 1);
        add("does not exist", "!x", "!x", 1);
        add("in", "x in (abc,def)", "x in (abc,def)", 1);
        add("notin", "x notin (abc)", "x notin (abc)", 1);
        add("greater", "x>1", "x>1", 1);
        add("less", "x<7", "x<7", 1);
        // Kubernetes' good strings, whose canonical form is the input without spaces.
        add("k8s three equals", "x=a,y=b,z=c", "x=a,y=b,z=c", 3);
        add("k8s not equals and equals", "x!=a,y=b", "x!=a,y=b", 2);
        add("k8s empty value", "x=", "x=", 1);
        add("k8s empty value, blank", "x= ", "x=", 1);
        add("k8s two empty values", "x=,z= ", "x=,z=", 2);
        add("k8s blank empty values", "x= ,z= ", "x=,z=", 2);
        add("k8s greater and less", "x>1,z<5", "x>1,z<5", 2);
        // TestSetSelectorParser's valid inputs.
        add("leading carriage return", "\rx", "x", 1);
        add("prefixed key", "this-is-a-dns.domain.com/key-with-dash", "this-is-a-dns.domain.com/key-with-dash", 1);
        add("prefixed key in", "this-is-another-dns.domain.com/key-with-dash in (so,what)",
            "this-is-another-dns.domain.com/key-with-dash in (so,what)", 1);
        add("numeric prefix, dotted values", "0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)",
            "0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)", 1);
        add("tabs around in", "foo  in\t (abc)", "foo in (abc)", 1);
        add("newline after notin", "x notin\n (abc)", "x notin (abc)", 1);
        add("empty item last", "x in (abc,)", "x in (,abc)", 1);
        add("empty set is the empty value", "x in ()", "x in ()", 1);
        add("blank set", "x notin ( )", "x notin ()", 1);
        add("empty item first", "x notin (, a)", "x notin (,a)", 1);
        add("sorted by key", "x notin (abc,def),bar,z in (),w", "bar,w,x notin (abc,def),z in ()", 4);
        add("trailing blank", "a ", "a", 1);
        add("in and notin as values", "a in (x,y,notin, z,in)", "a in (in,notin,x,y,z)", 1);
        add("in and notin as keys", "notin=in,in", "in,notin=in", 2);
        add("exists list", "x,y", "x,y", 2);
        add("deterministic order", "x=a,a=x", "a=x,x=a", 2);
        // What operators type for GPU clusters.
        add("zone", "topology.kubernetes.io/zone=us-central1-a", "topology.kubernetes.io/zone=us-central1-a", 1);
        add("clique set", "nvidia.com/gpu.clique in (a1b2.0, a1b2.1)", "nvidia.com/gpu.clique in (a1b2.0,a1b2.1)", 1);
        add("unschedulable", "!node.kubernetes.io/unschedulable", "!node.kubernetes.io/unschedulable", 1);
        add("filter bar example", "rack=rack-1-04, nvidia.com/gpu.clique in (a,b), !node.kubernetes.io/unschedulable",
            "!node.kubernetes.io/unschedulable,nvidia.com/gpu.clique in (a,b),rack=rack-1-04", 3);
        add("values with dots, dashes, underscores", "k=a.b-c_d", "k=a.b-c_d", 1);
        add("duplicate values collapse", "k in (b,a,b,a)", "k in (a,b)", 1);
        add("duplicate keys are all kept", "k=a,k!=b,k", "k=a,k!=b,k", 3);
        add("spaces everywhere", "  k  !=  v  ,  !  j  ", "!j,k!=v", 2);
        add("no space before paren", "k in(a)", "k in (a)", 1);
        add("63-character name", QByteArray(63, 'n').constData(), QByteArray(63, 'n').constData(), 1);
        add("uppercase name", "Rack=R1", "Rack=R1", 1);
    }

    void parseValid() {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, canonical);
        QFETCH(int, requirements);
        const LabelSelector selector = parsed(input);
        QCOMPARE(QByteArray::fromStdString(selector.toString()), canonical);
        QCOMPARE(int(selector.requirements().size()), requirements);
        QCOMPARE(selector.empty(), requirements == 0);
        // The canonical form reads back as the same selector.
        QCOMPARE(parsed(canonical), selector);
    }

    // Input and a fragment of the error, which starts with the 1-based position.
    void parseInvalid_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("fragment");
        auto add = [](const char* name, const QByteArray& input, const char* fragment) {
            QTest::newRow(name) << input << QByteArray(fragment);
        };
        // Kubernetes' bad strings.
        add("or", "x=a||y=b", "at 3: invalid value 'a||y'");
        add("chained equals", "x==a==b", "at 5: expected ',' or the end after the requirement on 'x', found '=='");
        add("does not exist with value", "!x=a", "at 3: expected ',' or the end after '!x'");
        add("less than a word", "x<a", "at 3: expected a whole number");
        add("leading comma", ",x,y", "at 1: expected a label key, found ','");
        add("misspelt operator", "x nott in (y)", "at 3: expected an operator");
        add("trailing comma", "a in (xyz),", "at 12: expected a requirement after ','");
        add("missing comma between requirements", "a in (xyz)b notin ()", "at 11: expected ',' or the end");
        add("no comma between values", "a in (xyz abc)", "at 11: expected ',' or ')' after 'xyz'");
        add("unterminated set", "a notin(", "at 9: expected ')' after the values of 'notin'");
        add("paren after key", "a (", "at 3: expected an operator");
        add("paren alone", "(", "at 1: expected a label key, found '('");
        // More unbalanced parentheses and operators.
        add("set never closed", "zone in (a, b", "at 14: expected ')' after the values of 'in'");
        add("in without set", "zone in a", "at 9: expected '(' after 'in', found 'a'");
        add("in at the end", "zone in", "at 8: expected '(' after 'in', found the end");
        add("nested paren", "x in ((a))", "at 7: expected a value, ',' or ')' in the values of 'in', found '('");
        add("closing paren only", "x)", "at 2: expected an operator");
        add("operator in set", "x in (a,=)", "at 9: expected a value, ',' or ')'");
        add("two bangs", "!!x", "at 2: expected a label key after '!', found '!'");
        add("bang alone", "!", "at 2: expected a label key after '!', found the end");
        add("operator without key", "=a", "at 1: expected a label key, found '='");
        add("value not a value", "x=(a)", "at 3: expected a value after '=', found '('");
        add("double comma", "x,,y", "at 3: expected a label key, found ','");
        add("comma only", ",", "at 1: expected a label key");
        add("trailing comma after blank", "x=a , ", "at 7: expected a requirement after ','");
        // Keys.
        add("key starts with dash", "-x", "at 1: invalid label key '-x': the name must");
        add("key ends with dot", "x.", "invalid label key 'x.'");
        add("key with space inside prefix", "a b/c", "at 3: expected an operator");
        add("empty prefix", "/x", "at 1: invalid label key '/x': the prefix before '/' is empty");
        add("empty name", "example.com/", "the name part is empty");
        add("two slashes", "a/b/c", "at most one '/'");
        add("uppercase prefix", "Example.com/key", "the prefix must be a lowercase DNS subdomain");
        add("prefix part starts with dash", "-a.com/key", "lowercase DNS subdomain");
        add("prefix with empty part", "a..com/key", "lowercase DNS subdomain");
        add("name of 64", QByteArray(64, 'n'), "longer than 63");
        add("prefix of 254", QByteArray(254, 'p') + "/n", "the prefix is longer than 253");
        add("key of 254 without prefix", QByteArray(254, 'a'), "longer than 63");
        add("key with a colon", "a:b", "invalid label key 'a:b'");
        add("non-ASCII key", "z\xC3\xB6ne=a", "invalid label key");
        add("control character", "a\x01=b", "invalid label key 'a\\x01'");
        // Values.
        add("value of 64", "x=" + QByteArray(64, 'v'), "at 3: invalid value");
        add("value starts with dot", "x=.a", "at 3: invalid value '.a' for 'x'");
        add("value ends with dash", "x in (a, b-)", "at 10: invalid value 'b-'");
        add("value with slash", "x!=a/b", "invalid value 'a/b'");
        add("greater than negative", "x>-1", "expected a whole number");
        add("greater than nothing", "x>", "at 3: expected a whole number");
        add("greater than too large", "x>9223372036854775808", "expected a whole number");
        add("greater than a word", "foo>bar", "expected a whole number");
        // The length cap.
        add("too long", QByteArray(int(LabelSelector::kMaxLength) + 1, 'a'), "at most 4096 are accepted");
    }

    void parseInvalid() {
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, fragment);
        Result<LabelSelector> result = LabelSelector::parse(input.toStdString());
        QVERIFY2(!result,
                 qPrintable(QStringLiteral("parsed: ") + QString::fromStdString(result ? result->toString() : "")));
        const QByteArray message = QByteArray::fromStdString(result.error().message);
        QVERIFY2(message.contains(fragment), message.constData());
        QVERIFY(message.startsWith("at ") || message.startsWith("the selector is"));
    }

    void requirementShape() {
        const LabelSelector selector = parsed("zone notin (b, a, ), gpu.count>3, !spare, rack==r1");
        const std::vector<LabelRequirement>& r = selector.requirements();
        QCOMPARE(r.size(), std::size_t(4));
        QCOMPARE(r[0].key, std::string("gpu.count"));
        QVERIFY(r[0].op == Op::GreaterThan);
        QCOMPARE(r[0].bound, std::int64_t(3));
        QCOMPARE(r[1].key, std::string("rack"));
        QVERIFY(r[1].op == Op::Equals);
        QCOMPARE(r[1].values, std::vector<std::string>{"r1"});
        QVERIFY(r[2].op == Op::DoesNotExist);
        QVERIFY(r[2].values.empty());
        QVERIFY(r[3].op == Op::NotIn);
        QCOMPARE(r[3].values, (std::vector<std::string>{"", "a", "b"}));
    }

    // Selector, the object's labels ("k=v,k2=v2"), and whether they match.
    void matches_data() {
        QTest::addColumn<QByteArray>("selector");
        QTest::addColumn<QByteArray>("labels");
        QTest::addColumn<bool>("match");
        auto add = [](const char* selector, const char* labels, bool match) {
            QTest::newRow(QByteArray(QByteArray(selector) + " | " + labels).constData())
                << QByteArray(selector) << QByteArray(labels) << match;
        };
        // TestSelectorMatches.
        add("", "x=y", true);
        add("x=y", "x=y", true);
        add("x=y,z=w", "x=y,z=w", true);
        add("x!=y,z!=w", "x=z,z=a", true);
        add("notin=in", "notin=in", true);
        add("x", "x=z", true);
        add("!x", "y=z", true);
        add("x>1", "x=2", true);
        add("x<1", "x=0", true);
        add("x=z", "", false);
        add("x=y", "x=z", false);
        add("x=y,z=w", "x=w,z=w", false);
        add("x!=y,z!=w", "x=z,z=w", false);
        add("x", "y=z", false);
        add("!x", "x=z", false);
        add("x>1", "x=0", false);
        add("x<1", "x=2", false);
        add("foo=bar,baz=blah", "foo=bar,baz=blah", true);
        add("foo=blah", "foo=bar,baz=blah", false);
        add("foo=bar,foobar=bar,baz=blah", "foo=bar,baz=blah", false);
        // TestRequirementSelectorMatching.
        add("x in (foo),y notin (alpha)", "x=foo,y=baz", true);
        add("x in (foo),y in (alpha)", "x=foo,y=baz", false);
        add("x notin (),y", "y=", true);
        add("!x,y", "y=", true);
        add("x notin (),!y", "y=", false);
        add("x in ()", "y=baz", false);
        add("z>1", "z=2", true);
        add("z>1", "z=v2", false);
        // != and notin hold for objects without the key; = and in need it.
        add("x!=a", "", true);
        add("x notin (a,b)", "y=a", true);
        add("x in (a,b)", "y=a", false);
        add("x in (a,b)", "x=b", true);
        add("x notin (a,b)", "x=b", false);
        add("x=", "x=", true);
        add("x=", "", false);
        add("x!=", "x=", false);
        add("x in (,a)", "x=", true);
        // Duplicate keys: every requirement must hold.
        add("x=a,x=b", "x=a", false);
        add("x,x!=b", "x=a", true);
        add("x in (a,b),x notin (b)", "x=b", false);
        // Prefixed keys and values as GPU clusters have them.
        add("nvidia.com/gpu.clique in (c1.0,c1.1)", "nvidia.com/gpu.clique=c1.1,rack=r1", true);
        add("nvidia.com/gpu.clique in (c1.0,c1.1)", "nvidia.com/gpu.clique=c2.0", false);
        add("topology.kubernetes.io/zone=us-east-1a,!node.kubernetes.io/unschedulable",
            "topology.kubernetes.io/zone=us-east-1a", true);
        add("topology.kubernetes.io/zone=us-east-1a,!node.kubernetes.io/unschedulable",
            "node.kubernetes.io/unschedulable=,topology.kubernetes.io/zone=us-east-1a", false);
        // Numbers compare as numbers, and only whole numbers do.
        add("nvidia.com/gpu.count>4", "nvidia.com/gpu.count=8", true);
        add("nvidia.com/gpu.count>4", "nvidia.com/gpu.count=10", true);
        add("nvidia.com/gpu.count<10", "nvidia.com/gpu.count=9", true);
        add("nvidia.com/gpu.count>4", "nvidia.com/gpu.count=4", false);
        add("nvidia.com/gpu.count>4", "nvidia.com/gpu.count=8.0", false);
        add("nvidia.com/gpu.count>4", "", false);
        // Many values: the search changes, not the answer.
        add("k in (a,b,c,d,e,f,g,h,i,j,k)", "k=j", true);
        add("k in (a,b,c,d,e,f,g,h,i,j,k)", "k=z", false);
        add("k notin (a,b,c,d,e,f,g,h,i,j,k)", "k=k", false);
    }

    void matches() {
        QFETCH(QByteArray, selector);
        QFETCH(QByteArray, labels);
        QFETCH(bool, match);
        QCOMPARE(parsed(selector).matches(labelsOf(labels)), match);
    }

    void keyAndValueProblems() {
        QVERIFY(labelKeyProblem("nvidia.com/gpu.clique").empty());
        QVERIFY(labelKeyProblem("1234").empty());
        QVERIFY(labelKeyProblem("1foo").empty());
        QVERIFY(labelKeyProblem("a_b.C-d").empty());
        QVERIFY(labelKeyProblem(std::string(253, 'a') + "/" + std::string(63, 'b')).empty());
        QVERIFY(!labelKeyProblem("").empty());
        QVERIFY(!labelKeyProblem("_a").empty());
        QVERIFY(!labelKeyProblem("a_").empty());
        QVERIFY(!labelKeyProblem("a.com_/b").empty());
        QVERIFY(labelValueProblem("").empty());
        QVERIFY(labelValueProblem(std::string(63, 'v')).empty());
        QVERIFY(labelValueProblem("NVIDIA-H100-80GB-HBM3").empty());
        QVERIFY(!labelValueProblem(std::string(64, 'v')).empty());
        QVERIFY(!labelValueProblem("a b").empty());
        QVERIFY(!labelValueProblem("_").empty());
    }

    // Pathological input is refused or read in time linear in its length.
    void hostileInputStaysFast() {
        const std::string manyCommas = "x in (" + std::string(LabelSelector::kMaxLength - 7, ',') + ")";
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 100; ++i) {
            QVERIFY(LabelSelector::parse(manyCommas).ok());
            std::string manyKeys;
            while (manyKeys.size() + 3 < LabelSelector::kMaxLength) manyKeys += manyKeys.empty() ? "a" : ",a";
            QVERIFY(LabelSelector::parse(manyKeys).ok());
            QVERIFY(!LabelSelector::parse(std::string(LabelSelector::kMaxLength, '(')).ok());
            QVERIFY(!LabelSelector::parse(std::string(LabelSelector::kMaxLength, '!')).ok());
            QVERIFY(!LabelSelector::parse(std::string(1 << 20, 'a')).ok());
        }
        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        // An error about a long literal quotes only its start.
        const auto error = LabelSelector::parse(std::string(200, 'x') + "=" + std::string(200, '-'));
        QVERIFY(!error);
        QVERIFY(error.error().message.size() < 200);
    }

    void maskOverStateAndIndex() {
        using testing::makeNode;
        ClusterState state;
        (void)state.apply(NodeUpserted{makeNode("n1", "b1", "r1", 8, true, false, "c1")});
        (void)state.apply(NodeUpserted{makeNode("n2", "b1", "r1", 8, true, true, "c1")});
        (void)state.apply(NodeUpserted{makeNode("n3", "b1", "r2", 8, true, false, "c2")});
        (void)state.apply(NodeUpserted{makeNode("n4", "b2", "r3", 8)});
        (void)state.apply(NodeUpserted{makeNode("n5", "b2", "", 8)});      // no rack label
        (void)state.apply(PodUpserted{testing::makePod("p", "ghost", 1)}); // a slot without a node
        (void)state.apply(NodeDeleted{"n4"});
        TopologySpec spec = TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"});
        spec.nvlinkLabel = "nvidia.com/gpu.clique";
        const TopologyIndex index = TopologyIndex::build(state, spec);
        const NodeId n1 = *state.findNode("n1"), n2 = *state.findNode("n2"), n3 = *state.findNode("n3");
        const NodeId n4 = *state.findNode("n4"), n5 = *state.findNode("n5"), ghost = *state.findNode("ghost");

        const NodeMask mask = matchNodes(parsed("example.com/rack notin (r2), nvidia.com/gpu.clique"), state);
        QCOMPARE(mask.size(), state.nodeSlots());
        QCOMPARE(int(mask[n1]), 1);
        QCOMPARE(int(mask[n2]), 1);
        QCOMPARE(int(mask[n3]), 0);
        QCOMPARE(int(mask[n4]), 0); // deleted
        QCOMPARE(int(mask[n5]), 0);
        QCOMPARE(int(mask[ghost]), 0);

        // The snapshot's nodes give the same mask.
        std::vector<std::shared_ptr<const Node>> nodesById(state.nodeSlots());
        for (NodeId id = 0; id < state.nodeSlots(); ++id)
            if (state.record(id).present) nodesById[id] = state.record(id).node;
        QCOMPARE(matchNodes(parsed("example.com/rack notin (r2), nvidia.com/gpu.clique"), nodesById), mask);

        // Reading level and NVLink keys off the index gives the same answers as reading every node.
        for (const char* text :
             {"", "example.com/rack notin (r2), nvidia.com/gpu.clique", "example.com/rack", "!example.com/rack",
              "example.com/block=b1,example.com/rack!=r1", "example.com/block in (b2),!nvidia.com/gpu.clique",
              "nvidia.com/gpu.clique in (c2)", "nvidia.com/gpu.clique notin (c2)", "example.com/rack in (,r3)",
              "example.com/rack=r1,example.com/rack", "example.com/block>1", "other", "!other",
              "example.com/block=b1,nvidia.com/gpu.clique=c1,!other"}) {
            const LabelSelector selector = parsed(text);
            QVERIFY2(matchNodes(selector, nodesById, index) == matchNodes(selector, nodesById), text);
        }

        const NodeMask everyone = matchNodes(LabelSelector(), state);
        QCOMPARE(std::count(everyone.begin(), everyone.end(), 1), 4);
        const NodeMask noRack = matchNodes(parsed("!example.com/rack"), state);
        QCOMPARE(std::count(noRack.begin(), noRack.end(), 1), 1);
        QCOMPARE(int(noRack[n5]), 1);

        const std::vector<std::uint32_t> perDomain = matchesPerDomain(index, mask);
        QCOMPARE(perDomain.size(), index.domainSlots());
        QCOMPARE(perDomain[kRootDomain], 2u);
        const DomainId b1 = index.findChild(kRootDomain, "b1");
        const DomainId b2 = index.findChild(kRootDomain, "b2");
        QCOMPARE(perDomain[b1], 2u);
        QCOMPARE(perDomain[index.findChild(b1, "r1")], 2u);
        QCOMPARE(perDomain[index.findChild(b1, "r2")], 0u);
        QCOMPARE(perDomain[b2], 0u);
        QCOMPARE(matchesPerDomain(index, everyone)[kRootDomain], 4u);
    }
};

TOPODECK_TEST_GUILESS_MAIN(TestLabelSelector)
#include "test_label_selector.moc"
