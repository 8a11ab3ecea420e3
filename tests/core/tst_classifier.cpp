#include "classify/classifier.h"
#include "model/tracestore.h"
#include "ops/comparison/collectives.h"
#include "testdata.h"
#include "util/inputerror.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace fusiondiff;

class TestClassifier : public QObject
{
    Q_OBJECT

private:
    // Every real kernel name of ../shared/traces with the category an independent implementation
    // gives it (tests/golden/classify_reference.py, or the seed's own rules in run_seed.py).
    static void compareWithExpected(const Classifier& classifier, const QString& expectedFile)
    {
        QFile file(test::dataPath(QStringLiteral("classifier/") + expectedFile));
        QVERIFY(file.open(QIODevice::ReadOnly));
        int checked = 0;
        while (!file.atEnd()) {
            const QByteArray line = file.readLine().chopped(1);
            if (line.startsWith('#'))
                continue;
            const qsizetype tab = line.indexOf('\t');
            const std::string expected = line.left(tab).toStdString();
            const std::string name = line.mid(tab + 1).toStdString();
            const std::string actual = classifier.categoryName(classifier.classify(name));
            if (actual != expected)
                QFAIL(qPrintable(QStringLiteral("%1 -> %2, expected %3")
                                     .arg(QString::fromStdString(name), QString::fromStdString(actual),
                                         QString::fromStdString(expected))));
            ++checked;
        }
        QCOMPARE(checked, 751);
    }

    static QString writeRules(const QTemporaryDir& dir, const QByteArray& json)
    {
        const QString path = dir.filePath(QStringLiteral("rules.json"));
        QFile file(path);
        file.open(QIODevice::WriteOnly);
        file.write(json);
        return path;
    }

private Q_SLOTS:
    void seedRulesMatchTheSeedOnEveryRealKernelName()
    {
        compareWithExpected(Classifier::builtin("seed"), QStringLiteral("seed_expected.tsv"));
    }

    void defaultRulesMatchTheReferenceImplementation()
    {
        compareWithExpected(Classifier::builtin("default"), QStringLiteral("default_expected.tsv"));
    }

    void seedRulesInOrder_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("category");
        QTest::newRow("hipBLASLt") << "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64"
                                   << "GEMM";
        QTest::newRow("case-insensitive") << "CUBLAS_something"
                                          << "GEMM";
        QTest::newRow("GEMM wins over attention") << "nvjet_attention"
                                                  << "GEMM";
        QTest::newRow("fmha") << "aiter::fmha_fwd_hd128_bf16_rtz"
                              << "Attention";
        QTest::newRow("kv cache") << "reshape_and_cache_flash_kernel"
                                  << "KV_Cache";
        QTest::newRow("triton rsqrt") << "triton_red_fused_add_mean_mul_pow_rsqrt_0"
                                      << "RMSNorm";
        QTest::newRow("layernorm") << "vectorized_layer_norm_kernel"
                                   << "Other"; // "layer_norm" is not "layernorm"
        QTest::newRow("vLLM norm is Other in the seed") << "fused_add_rms_norm_kernel"
                                                        << "Other";
        QTest::newRow("silu") << "act_and_mul_kernel<silu>"
                              << "SwiGLU";
        QTest::newRow("CUTLASS relu epilogue is ReLU in the seed")
            << "cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8"
            << "ReLU";
        QTest::newRow("triton_poi") << "triton_poi_fused_add_0"
                                    << "Triton_Pointwise";
        QTest::newRow("radix sort") << "DeviceRadixSortOnesweepKernel"
                                    << "Sort";
        QTest::newRow("softmax") << "cunn_SoftMaxForward"
                                 << "Softmax";
        QTest::newRow("elementwise") << "vectorized_elementwise_kernel<4, AddFunctor>"
                                     << "Elementwise";
        QTest::newRow("copy") << "CatArrayBatchedCopy"
                              << "MemCopy";
        QTest::newRow("nothing") << "ncclKernel_AllReduce_RING_LL_Sum_float"
                                 << "Other";
        QTest::newRow("empty") << ""
                               << "Other";
    }

    void seedRulesInOrder()
    {
        QFETCH(QString, name);
        QFETCH(QString, category);
        const Classifier classifier = Classifier::builtin("seed");
        QCOMPARE(QString::fromStdString(classifier.categoryName(classifier.classify(name.toStdString()))), category);
    }

    void defaultClassifierHasTheDocumentedCategories()
    {
        const Classifier classifier = Classifier::load("default");
        const std::vector<std::string> expected { "GEMM", "Conv", "Attention", "Norm", "Activation", "Elementwise",
            "Reduce", "Softmax", "SortTopK", "Communication", "Memory", "KVCache", "Embedding", "RoPE", "MoE",
            "Quantization", "Other" };
        QVERIFY(classifier.categories() == expected);
        QCOMPARE(classifier.categoryName(classifier.fallback()), std::string("Other"));
        QCOMPARE(classifier.source(), std::string("built-in"));
        // The seed's two known misclassifications are right here.
        QCOMPARE(classifier.categoryName(classifier.classify("void vllm::fused_add_rms_norm_kernel<c10::BFloat16>")),
            std::string("Norm"));
        QCOMPARE(classifier.categoryName(classifier.classify(
                     "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8>")),
            std::string("GEMM"));
    }

    void expertParallelRolesHoldInNamespacesOfNoLibrary_data()
    {
        // Names made up for this test in namespaces no rule names: dispatch, combine and notify
        // kernels on the intranode, internode and low-latency paths, in snake and camel case.
        QTest::addColumn<QString>("name");
        for (const char* name : { "void acme_ep::intranode::dispatch<8, 768, 4096>(int4*, float*, int*, long*)",
                 "void acme_ep::internode::combine<false, 8, 512>(void*, float*)",
                 "void acme_ep::internode_ll::dispatch<true>(void*, int*)",
                 "void acme_ep::intranode::notify_dispatch<8>(int const*, int*)",
                 "void acme_ep::internode::cached_notify_combine<4>(void**, int*)",
                 "zeta::moe_comm::LowLatencyDispatchKernel<bf16>(zeta::Args)",
                 "zeta::moe_comm::low_latency_combine_kernel<bf16, 7168>(zeta::Args)",
                 "void hpc::expert_parallel::InterNodeDispatchKernel<__hip_bfloat16>(hpc::EpArgs)",
                 "void hpc::expert_parallel::IntraNodeCombineKernel<__hip_bfloat16>(hpc::EpArgs)",
                 "void hpc::expert_parallel::IntraNodeNotifyKernel(hpc::EpArgs)",
                 "kernels::ep::internode_notify_dispatch(int*, int*)", "mylib_intranode_dispatch_fp8_kernel" })
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void expertParallelRolesHoldInNamespacesOfNoLibrary()
    {
        QFETCH(QString, name);
        const Classifier classifier = Classifier::load("default");
        QCOMPARE(classifier.categoryName(classifier.classify(name.toStdString())), std::string("Communication"));
        QCOMPARE(collectiveOf(name.toStdString(), Platform::AMD).collective, std::string("AllToAll"));
    }

    void dispatchWithoutAPathIsNoCommunication()
    {
        // A role word alone is not enough: local dispatchers and generated Triton kernels that
        // fused such ops stay what they are.
        const Classifier classifier = Classifier::load("default");
        for (const char* name : { "void cub::DeviceReduceByKeyKernel<cub::DispatchReduceByKey<int*>>(int*)",
                 "void cub::DispatchRadixSort<false, int>::sort_kernel(int*)", "groupnorm_kernel_dispatch_up",
                 "triton_poi_fused_internode_dispatch_3", "triton_red_fused_combine_intranode_0",
                 "void at::native::combine_kernel<float>(float*)", "void vllm::moe::topk_dispatch_kernel(float*)" }) {
            QVERIFY2(classifier.categoryName(classifier.classify(name)) != "Communication", name);
            QVERIFY2(collectiveOf(name, Platform::NVIDIA).collective.empty(), name);
        }
    }

    void userRuleFile()
    {
        QTemporaryDir dir;
        const QString path = writeRules(dir, R"({
            "format": "fusiondiff-classifier/1", "name": "mine", "fallback": "Rest",
            "categories": ["Matmul", "Rest"],
            "rules": [{"category": "Matmul", "prefix": ["void gemm"], "none": ["_relu"], "comment": "x"},
                      {"category": "Matmul", "all": ["MM", "bias"]}]})");
        const Classifier classifier = Classifier::load(path.toStdString());
        QCOMPARE(classifier.name(), std::string("mine"));
        QCOMPARE(classifier.source(), path.toStdString());
        QCOMPARE(classifier.categoryName(classifier.classify("VOID GEMM_kernel")), std::string("Matmul"));
        QCOMPARE(classifier.categoryName(classifier.classify("void gemm_relu")), std::string("Rest"));
        QCOMPARE(classifier.categoryName(classifier.classify("a_mm_with_bias")), std::string("Matmul"));
        QCOMPARE(classifier.categoryName(classifier.classify("a_mm_without")), std::string("Rest"));
        QCOMPARE(classifier.categoryName(classifier.classify("my gemm")), std::string("Rest"));
    }

    void badRuleFiles_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("reason");
        const QByteArray head
            = R"("format": "fusiondiff-classifier/1", "name": "x", "fallback": "B", "categories": ["A", "B"])";
        QTest::newRow("not json") << QByteArray("{nope") << "not valid JSON";
        QTest::newRow("not an object") << QByteArray("[]") << "must be a JSON object";
        QTest::newRow("format") << QByteArray(R"({"format": "v2", "name": "x"})") << "\"format\" must be";
        QTest::newRow("no name") << QByteArray(R"({"format": "fusiondiff-classifier/1"})") << "missing \"name\"";
        QTest::newRow("unknown category") << QByteArray("{" + head + R"(, "rules": [{"category": "C", "any": ["x"]}]})")
                                          << "category \"C\" is not in \"categories\"";
        QTest::newRow("no condition") << QByteArray("{" + head + R"(, "rules": [{"category": "A", "none": ["x"]}]})")
                                      << "needs \"any\", \"all\" or \"prefix\"";
        QTest::newRow("unknown key") << QByteArray("{" + head + R"(, "rules": [{"category": "A", "regex": "x"}]})")
                                     << "unknown key \"regex\"";
        QTest::newRow("empty pattern") << QByteArray("{" + head + R"(, "rules": [{"category": "A", "any": [""]}]})")
                                       << "non-empty strings";
        QTest::newRow("bad fallback") << QByteArray(
            R"({"format": "fusiondiff-classifier/1", "name": "x", "fallback": "Z", "categories": ["A"], "rules": []})")
                                      << "\"fallback\": category \"Z\"";
        QTest::newRow("duplicate category") << QByteArray(
            R"({"format": "fusiondiff-classifier/1", "name": "x", "fallback": "A", "categories": ["A", "A"], "rules": []})")
                                            << "listed twice";
    }

    void badRuleFiles()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = writeRules(dir, json);
        try {
            Classifier::load(path.toStdString());
            QFAIL("accepted a bad rule file");
        } catch (const InputError& error) {
            QCOMPARE(QString::fromStdString(error.path()), path);
            QVERIFY2(QString::fromStdString(error.reason()).contains(reason), error.what());
        }
    }

    void missingRuleFile()
    {
        try {
            Classifier::load("/nonexistent/rules.json");
            QFAIL("accepted a missing file");
        } catch (const InputError& error) {
            QVERIFY(QString::fromUtf8(error.what()).startsWith(QStringLiteral("/nonexistent/rules.json: ")));
        }
    }
};

QTEST_GUILESS_MAIN(TestClassifier)
#include "tst_classifier.moc"
