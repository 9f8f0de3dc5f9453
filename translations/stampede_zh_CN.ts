<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AgentListModel</name>
    <message>
        <location filename="../models/enginesettings.cpp" line="214"/>
        <source>checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="226"/>
        <source>%1 of %2 agents answer</source>
        <translation>%2 个代理中有 %1 个应答</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="283"/>
        <source>host:port of a stampede-cli agent (started with `stampede-cli agent --listen`), dns:NAME:PORT (every address of a name, as a Kubernetes headless Service gives) or file:PATH (a list)</source>
        <translation>stampede-cli 代理的 host:port（由 `stampede-cli agent --listen` 启动）、dns:NAME:PORT（一个名称的全部地址，如 Kubernetes 无头 Service 所给）或 file:PATH（一个列表）</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="314"/>
        <source>Agent (host:port)</source>
        <translation>代理（host:port）</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="314"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>BreakerEditor</name>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="51"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="51"/>
        <source>Violation when</source>
        <translation>违规条件</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="51"/>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="51"/>
        <source>In a row</source>
        <translation>连续次数</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="51"/>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="51"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="56"/>
        <source>Judged every second on all engines&apos; data while the run goes on. Violation when: a threshold expression such as p99 &gt; 300ms, error_rate &gt; 5%, server:db_cpu &gt; 80. Window: whole seconds (5s). In a row: violating windows that trip it. Action: warn, stop, degrade 50% (never below a tenth of the plan), or rollback (stop, then the plan&apos;s teardown and the command line&apos;s --rollback). Step: judge one step alone. A violation may be judged against the scenario&apos;s history: p99 &gt; baseline + 3 sigma.</source>
        <translation>运行期间每秒基于所有引擎的数据判定。违规条件：阈值表达式，如 p99 &gt; 300ms、error_rate &gt; 5%、server:db_cpu &gt; 80。窗口：整秒（5s）。连续次数：连续多少个违规窗口触发熔断。动作：warn（告警）、stop（停止）、degrade 50%（降级，不低于计划的十分之一）或 rollback（停止，随后执行计划的清理阶段和命令行的 --rollback）。步骤：只判定某一步骤。违规条件也可以相对场景的历史判定：p99 &gt; baseline + 3 sigma。</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="66"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="67"/>
        <source>With recovery: seconds without a violation before a degraded load climbs back by a quarter of the plan</source>
        <translation>启用恢复时：无违规持续这么多秒后，降级的负载按计划的四分之一逐步回升</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="69"/>
        <source>Recover after</source>
        <translation>恢复间隔</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="71"/>
        <source>Levels</source>
        <translation>分级</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="73"/>
        <source>Instead of each rule&apos;s own action, count the rules violated in the same second: one warns, two degrade the load by half, three or more stop the run</source>
        <translation>不使用各规则自身的动作，而是统计同一秒内违规的规则数：一条告警，两条将负载降低一半，三条及以上停止运行</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="75"/>
        <source>Add rule</source>
        <translation>添加规则</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="76"/>
        <source>Remove rule</source>
        <translation>删除规则</translation>
    </message>
    <message>
        <location filename="../widgets/breakereditor.cpp" line="89"/>
        <source>rule %1</source>
        <translation>规则 %1</translation>
    </message>
</context>
<context>
    <name>CapacityDialog</name>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="14"/>
        <location filename="../widgets/capacitydialog.cpp" line="63"/>
        <source>Find capacity</source>
        <translation>寻找容量</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="15"/>
        <source>Raises the open-model rate level by level (×growth) until a level breaks an SLO, then narrows down between the last good and the first bad rate until they are within 10 %. Each level&apos;s first second is not judged. The scenario&apos;s breaker stop rules still apply.</source>
        <translation>按级别逐步提高开放模型速率（×增长倍数），直到某一级别突破 SLO，然后在最后一个达标速率与第一个未达标速率之间逐步收窄，直到两者相差不超过 10 %。每一级别的第一秒不参与判定。场景熔断器的停止规则仍然生效。</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="22"/>
        <source>One condition per line, written as a threshold: p99 &lt; 50ms, error_rate &lt; 1%, checks &gt; 99%, login: p95 &lt; 80ms, server:db_cpu &lt; 80</source>
        <translation>每行一个条件，写法同阈值：p99 &lt; 50ms、error_rate &lt; 1%、checks &gt; 99%、login: p95 &lt; 80ms、server:db_cpu &lt; 80</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="35"/>
        <source>The first level&apos;s rate (iterations per second; requests per second for one step)</source>
        <translation>第一级的速率（每秒迭代数；单步骤时即每秒请求数）</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="37"/>
        <source>The search never offers more than this</source>
        <translation>搜索提供的速率绝不超过此值</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="42"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="43"/>
        <source>How long each level holds; its first second (the change-over) is not judged</source>
        <translation>每一级持续多久；其第一秒（切换期）不参与判定</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="49"/>
        <source>Each level before the first bad one is this many times the last: 2 overshoots the limit less and takes more levels</source>
        <translation>在第一个未达标级别之前，每一级都是上一级的这么多倍：2 倍超出上限更少，但需要更多级别</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="56"/>
        <source>SLOs:</source>
        <translation>SLO：</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="57"/>
        <source>Start rate:</source>
        <translation>起始速率：</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="58"/>
        <source>Highest rate:</source>
        <translation>最高速率：</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="59"/>
        <source>Each level:</source>
        <translation>每一级：</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="60"/>
        <source>Growth:</source>
        <translation>增长倍数：</translation>
    </message>
</context>
<context>
    <name>ChecksTable</name>
    <message>
        <location filename="../widgets/checkstable.cpp" line="17"/>
        <source>equals</source>
        <translation>等于</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="17"/>
        <source>matches</source>
        <translation>匹配</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="18"/>
        <source>exists</source>
        <translation>存在</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="18"/>
        <source>absent</source>
        <translation>不存在</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="25"/>
        <source>status</source>
        <translation>状态码</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="26"/>
        <source>JSON path</source>
        <translation>JSON 路径</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="27"/>
        <source>header</source>
        <translation>响应头</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="28"/>
        <source>body contains</source>
        <translation>响应体包含</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="29"/>
        <source>time at most (ms)</source>
        <translation>最长时间（毫秒）</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="30"/>
        <source>regular expression</source>
        <translation>正则表达式</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="83"/>
        <location filename="../widgets/checkstable.cpp" line="85"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="83"/>
        <source>Reads</source>
        <translation>读取</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="83"/>
        <location filename="../widgets/checkstable.cpp" line="85"/>
        <source>Expression</source>
        <translation>表达式</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="83"/>
        <source>Test</source>
        <translation>判断</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="83"/>
        <source>Expected</source>
        <translation>期望值</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="83"/>
        <source>Not</source>
        <translation>取反</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="84"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="85"/>
        <source>From</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="85"/>
        <source>Group</source>
        <translation>分组</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="85"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="90"/>
        <source>Each check is judged on every answer: a status list (200, 201; gRPC: OK, NOT_FOUND), a JSON path such as $.data.token, a header&apos;s name, text the body contains, or a time in ms. A failed check counts as an error of class &quot;check&quot; in runs.</source>
        <translation>每个检查都会对每个响应进行判定：状态码列表（200, 201；gRPC：OK, NOT_FOUND）、JSON 路径（如 $.data.token）、响应头名称、响应体包含的文本，或以毫秒计的时间。运行中检查失败计为 “check” 类错误。</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="93"/>
        <source>Each value read from the answer becomes ${name}: in the environment after Send, and for this virtual user&apos;s later steps in a run. A regex takes its first group unless told another.</source>
        <translation>从响应中读取的每个值都成为 ${name}：发送后写入环境，运行中供该虚拟用户的后续步骤使用。正则表达式默认取第一个分组。</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="95"/>
        <source>Add check</source>
        <translation>添加检查</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="95"/>
        <source>Add extraction</source>
        <translation>添加提取</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="96"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="202"/>
        <source>Turn the result over: the check passes when the condition does not hold</source>
        <translation>结果取反：条件不成立时检查通过</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="303"/>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="303"/>
        <source>FAIL: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../widgets/checkstable.cpp" line="308"/>
        <source>(not found)</source>
        <translation>（未找到）</translation>
    </message>
</context>
<context>
    <name>CollectionImport</name>
    <message>
        <location filename="../models/collectionimport.cpp" line="32"/>
        <source>%1: its %2 authorization</source>
        <translation>%1：其 %2 授权</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="40"/>
        <source>the requests past the first %1</source>
        <translation>前 %1 个之后的请求</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="43"/>
        <source>%1: a gRPC request</source>
        <translation>%1：gRPC 请求</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="42"/>
        <source>%1: Postman&apos;s dynamic variables (%2) are kept as text</source>
        <translation>%1：Postman 的动态变量（%2）按原文保留</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="16"/>
        <source>The file is larger than 64 MiB.</source>
        <translation>文件大于 64 MiB。</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="17"/>
        <source>Not valid JSON at byte %1: %2</source>
        <translation>第 %1 字节处不是有效的 JSON：%2</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="18"/>
        <source>Not valid YAML: %1</source>
        <translation>不是有效的 YAML：%1</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="23"/>
        <source>Swagger 2.0 is not read: convert it to OpenAPI 3 first.</source>
        <translation>不读取 Swagger 2.0：请先转换为 OpenAPI 3。</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="25"/>
        <source>Not a Postman collection, an OpenAPI 3 file, a HAR file or curl commands.</source>
        <translation>不是 Postman 集合、OpenAPI 3 文件、HAR 文件或 curl 命令。</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="28"/>
        <source>This Postman Collection (%1) has no list of items: export it again from Postman as v2.1.</source>
        <translation>此 Postman Collection（%1）没有条目列表：请在 Postman 中重新导出为 v2.1。</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="31"/>
        <source>%1: its %2 script calls %3 (line %4), which Stampede does not run</source>
        <translation>%1：其 %2 脚本调用了 %3（第 %4 行），Stampede 不运行它</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="35"/>
        <source>%1: its body from the file &quot;%2&quot; (%3): it is sent empty, as newman does</source>
        <translation>%1：其请求体来自文件“%2”（%3）：与 newman 一样，发送空请求体</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="38"/>
        <source>%1: the file field &quot;%2&quot; names &quot;%3&quot; (%4): it is not sent, as newman leaves out a file it cannot load</source>
        <translation>%1：文件字段“%2”指向“%3”（%4）：不发送，与 newman 略去无法读取的文件一致</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="44"/>
        <source>entry %1: no method or absolute URL</source>
        <translation>条目 %1：没有方法或绝对 URL</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="33"/>
        <source>%1: the file field &quot;%2&quot;</source>
        <translation>%1：文件字段“%2”</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="45"/>
        <source>the entries past the first %1</source>
        <translation>前 %1 个之后的条目</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="47"/>
        <source>The HAR file has no entry with a request.</source>
        <translation>HAR 文件中没有带请求的条目。</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="48"/>
        <source>command %1: %2</source>
        <translation>命令 %1：%2</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="50"/>
        <source>No curl command in the file.</source>
        <translation>文件中没有 curl 命令。</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="157"/>
        <source>Imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="19"/>
        <source>nested deeper than %1 levels</source>
        <translation>嵌套超过 %1 层</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="21"/>
        <source>more than %1 values (aliases expanded)</source>
        <translation>超过 %1 个值（展开别名后）</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="49"/>
        <source>command %1: not taken: %2</source>
        <translation>第 %1 条命令：未采用：%2</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="52"/>
        <source>%1: the external reference %2</source>
        <translation>%1：外部引用 %2</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="54"/>
        <source>%1: the external reference %2 (%3)</source>
        <translation>%1：外部引用 %2（%3）</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="55"/>
        <source>%1: the reference %2 leads nowhere</source>
        <translation>%1：引用 %2 指向不存在的位置</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="59"/>
        <source>%1: its %2 security (%3)</source>
        <translation>%1：其 %2 安全方案（%3）</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="61"/>
        <source>Only OpenAPI 3 is read (this file says openapi: %1).</source>
        <translation>只读取 OpenAPI 3（此文件为 openapi: %1）。</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="57"/>
        <source>the server URL &quot;%1&quot; is relative: set baseUrl in the environment</source>
        <translation>服务器 URL“%1”是相对地址：请在环境中设置 baseUrl</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="58"/>
        <source>the operations past the first %1</source>
        <translation>前 %1 个之后的操作</translation>
    </message>
    <message>
        <location filename="../models/collectionimport.cpp" line="63"/>
        <source>The specification has no operation under paths.</source>
        <translation>规范的 paths 下没有任何操作。</translation>
    </message>
</context>
<context>
    <name>CollectionResultsModel</name>
    <message numerus="yes">
        <location filename="../models/collectionresults.cpp" line="229"/>
        <source>failed: %n error(s)</source>
        <translation>
            <numerusform>失败：%n 个错误</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="231"/>
        <source>failed: %1 of %2 tests</source>
        <translation>失败：%2 个测试中 %1 个失败</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="232"/>
        <source>not sent</source>
        <translation>未发送</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="232"/>
        <source>not sent yet</source>
        <translation>尚未发送</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="233"/>
        <location filename="../models/collectionresults.cpp" line="267"/>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="234"/>
        <source>sent, no test</source>
        <translation>已发送，无测试</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="265"/>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="265"/>
        <source>not run yet</source>
        <translation>尚未运行</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="266"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="285"/>
        <source>Request / test</source>
        <translation>请求 / 测试</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="287"/>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="289"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="291"/>
        <source>Passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="293"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../models/collectionresults.cpp" line="295"/>
        <source>Why it failed</source>
        <translation>失败原因</translation>
    </message>
</context>
<context>
    <name>CollectionRunDialog</name>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="26"/>
        <source>Run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="30"/>
        <source>Collection or folder:</source>
        <translation>集合或文件夹：</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="33"/>
        <source>(none: the collection&apos;s variables)</source>
        <translation>（无：使用集合变量）</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="37"/>
        <source>Its values are used above the collection&apos;s variables, as in Postman</source>
        <translation>其值优先于集合变量，与 Postman 相同</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="38"/>
        <source>Environment:</source>
        <translation>环境：</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="43"/>
        <source>How many times the requests run, in order; with a data file, a row each time</source>
        <translation>按顺序运行请求的次数；有数据文件时每次取一行</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="44"/>
        <source>Iterations:</source>
        <translation>迭代次数：</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="47"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="48"/>
        <source>A CSV file with a header row, or a JSON array of objects: {{column}} in the requests and pm.iterationData in scripts take a row each iteration</source>
        <translation>带表头行的 CSV 文件，或对象组成的 JSON 数组：每次迭代，请求中的 {{column}} 和脚本中的 pm.iterationData 取其中一行</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="50"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="54"/>
        <source>Data file:</source>
        <translation>数据文件：</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="61"/>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="62"/>
        <source>A pause between two requests (newman&apos;s --delay-request)</source>
        <translation>两个请求之间的停顿（newman 的 --delay-request）</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="63"/>
        <source>Delay:</source>
        <translation>延迟：</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="64"/>
        <source>Stop the run at the first failure</source>
        <translation>第一次失败时停止运行</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="66"/>
        <source>Unchecked, every request is sent whatever failed before it, as newman runs a collection (its --bail when checked)</source>
        <translation>不勾选时，无论之前什么失败，每个请求都会发送，与 newman 运行集合相同（勾选即 newman 的 --bail）</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="70"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="75"/>
        <source>Iteration data</source>
        <translation>迭代数据</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="76"/>
        <source>Data files (*.csv *.json);;All files (*)</source>
        <translation>数据文件 (*.csv *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="100"/>
        <source>Rows: %1 · columns: %2</source>
        <translation>行数：%1 · 列：%2</translation>
    </message>
</context>
<context>
    <name>CollectionRunView</name>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="174"/>
        <source>Failures only</source>
        <translation>仅显示失败</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="175"/>
        <source>Show only the requests and tests that failed</source>
        <translation>只显示失败的请求和测试</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="180"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="201"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="213"/>
        <location filename="../widgets/collectionrunner.cpp" line="226"/>
        <source>FAILED</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="226"/>
        <source>PASSED</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../widgets/collectionrunner.cpp" line="241"/>
        <source>Requests sent: %1 of %2 · tests: %3, failed: %4</source>
        <translation>已发送请求：%1 / %2 · 测试：%3，失败：%4</translation>
    </message>
</context>
<context>
    <name>CompareModel</name>
    <message>
        <location filename="../models/reportmodel.cpp" line="525"/>
        <source>Worse than the baseline beyond the tolerance</source>
        <translation>比基线差且超出容差</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="532"/>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="551"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="551"/>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="551"/>
        <source>Baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="551"/>
        <source>Candidate</source>
        <translation>候选</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="552"/>
        <source>Change</source>
        <translation>变化</translation>
    </message>
</context>
<context>
    <name>CompareView</name>
    <message>
        <location filename="../widgets/reportview.cpp" line="469"/>
        <source>A change for the worse beyond this is a regression</source>
        <translation>变差超过此值即视为回归</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/reportview.cpp" line="477"/>
        <source>%n regression(s)</source>
        <translation>
            <numerusform>%n 处回归</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="478"/>
        <source>no regression</source>
        <translation>无回归</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="485"/>
        <source>Baseline: %1
Candidate: %2</source>
        <translation>基线：%1
候选：%2</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="488"/>
        <source>Tolerance:</source>
        <translation>容差：</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="492"/>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="492"/>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="493"/>
        <location filename="../widgets/reportview.cpp" line="496"/>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="494"/>
        <location filename="../widgets/reportview.cpp" line="497"/>
        <source>candidate</source>
        <translation>候选</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="495"/>
        <source>p99 latency</source>
        <translation>p99 延迟</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="495"/>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
</context>
<context>
    <name>CsvPreviewModel</name>
    <message>
        <location filename="../models/csvpreviewmodel.cpp" line="32"/>
        <source>The encoding %1 is not available.</source>
        <translation>编码 %1 不可用。</translation>
    </message>
    <message>
        <location filename="../models/csvpreviewmodel.cpp" line="38"/>
        <source>The file is not valid %1 text: choose another encoding.</source>
        <translation>该文件不是有效的 %1 文本：请选择其他编码。</translation>
    </message>
</context>
<context>
    <name>DataSetEditor</name>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="25"/>
        <source>The text encoding of the file: UTF-8, or GB18030 for files saved by Chinese Excel</source>
        <translation>文件的文本编码：UTF-8；中文版 Excel 保存的文件请选 GB18030</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="27"/>
        <source>detect</source>
        <translation>自动检测</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="28"/>
        <source>comma ,</source>
        <translation>逗号 ,</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="29"/>
        <source>semicolon ;</source>
        <translation>分号 ;</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="30"/>
        <location filename="../widgets/dataseteditor.cpp" line="95"/>
        <source>tab</source>
        <translation>制表符</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="31"/>
        <source>bar |</source>
        <translation>竖线 |</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="32"/>
        <source>Import CSV…</source>
        <translation>导入 CSV…</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="38"/>
        <source>Encoding:</source>
        <translation>编码：</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="40"/>
        <source>Delimiter:</source>
        <translation>分隔符：</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="50"/>
        <source>The first row names the columns. In requests, write ${set.column} (for example ${users.id}); each iteration takes the next row.</source>
        <translation>第一行为列名。在请求中写 ${数据集.列名}（例如 ${users.id}）；每次迭代取下一行。</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="56"/>
        <source>Import CSV</source>
        <translation>导入 CSV</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="57"/>
        <source>CSV files (*.csv *.txt);;All files (*)</source>
        <translation>CSV 文件 (*.csv *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="62"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="90"/>
        <source>Not a usable CSV: %1</source>
        <translation>无法使用的 CSV：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/dataseteditor.cpp" line="97"/>
        <source>%n row(s), columns: %1 — delimiter &quot;%2&quot;%3</source>
        <translation>
            <numerusform>%n 行，列：%1 — 分隔符“%2”%3</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="99"/>
        <source> (detected)</source>
        <translation>（自动检测）</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="104"/>
        <source>Not used by any request or scenario yet.</source>
        <translation>尚未被任何请求或场景使用。</translation>
    </message>
    <message>
        <location filename="../widgets/dataseteditor.cpp" line="105"/>
        <source>Used by: %1</source>
        <translation>使用者：%1</translation>
    </message>
</context>
<context>
    <name>DigestAuthBox</name>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="8"/>
        <source>Digest</source>
        <translation>Digest 摘要认证</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="24"/>
        <location filename="../widgets/digestauthbox.cpp" line="25"/>
        <source>value, or ${variable}</source>
        <translation>值，或 ${variable}</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="35"/>
        <location filename="../widgets/digestauthbox.cpp" line="36"/>
        <location filename="../widgets/digestauthbox.cpp" line="39"/>
        <location filename="../widgets/digestauthbox.cpp" line="46"/>
        <source>the server&apos;s</source>
        <translation>取服务器的</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="24"/>
        <source>User:</source>
        <translation>用户：</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="25"/>
        <source>Password:</source>
        <translation>密码：</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="26"/>
        <source>Empty: the value of the server&apos;s challenge (its 401). Written: this value, whatever the server says, as Postman does</source>
        <translation>留空：取服务器质询（其 401）中的值。填写：无论服务器给出什么都用此值，与 Postman 相同</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="33"/>
        <source>Used when realm and nonce are written; otherwise the server&apos;s challenge names it</source>
        <translation>填写了 realm 和 nonce 时使用；否则由服务器的质询指定</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="34"/>
        <source>Algorithm:</source>
        <translation>算法：</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="35"/>
        <source>Realm:</source>
        <translation>Realm：</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="36"/>
        <source>Nonce:</source>
        <translation>Nonce：</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="41"/>
        <source>qop:</source>
        <translation>qop：</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="42"/>
        <source>Nonce count:</source>
        <translation>Nonce 计数：</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="42"/>
        <source>Hex, as 00000001. Empty: 1 for each new nonce, then counting up</source>
        <translation>十六进制，如 00000001。留空：每个新 nonce 从 1 开始递增</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="43"/>
        <location filename="../widgets/digestauthbox.cpp" line="45"/>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="44"/>
        <source>Client nonce:</source>
        <translation>客户端 nonce：</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="44"/>
        <source>Empty: a fresh random one for each challenge</source>
        <translation>留空：每次质询随机生成</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="46"/>
        <source>Opaque:</source>
        <translation>Opaque：</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="47"/>
        <source>Do not send again on the server&apos;s challenge</source>
        <translation>收到服务器质询时不再重发</translation>
    </message>
    <message>
        <location filename="../widgets/digestauthbox.cpp" line="49"/>
        <source>Postman&apos;s &quot;disable retrying the request&quot;: the 401 is then the request&apos;s answer</source>
        <translation>即 Postman 的“禁用重试请求”：此时 401 就是该请求的应答</translation>
    </message>
</context>
<context>
    <name>EngineSettings</name>
    <message>
        <location filename="../models/enginesettings.cpp" line="69"/>
        <source>The Prometheus endpoint is host:port, as 127.0.0.1:9465 (a port from 1 to 65535); &quot;%1&quot; is not.</source>
        <translation>Prometheus 端点应为 host:port，如 127.0.0.1:9465（端口 1 到 65535）；“%1”不是。</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="77"/>
        <source>The remote write URL starts with http:// or https://, as http://127.0.0.1:9090/api/v1/write; &quot;%1&quot; does not.</source>
        <translation>远程写入 URL 须以 http:// 或 https:// 开头，例如 http://127.0.0.1:9090/api/v1/write；“%1”不是。</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="85"/>
        <source>The JSON lines file would overwrite the project itself.</source>
        <translation>JSON Lines 文件会覆盖项目本身。</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="88"/>
        <source>The folder of the JSON lines file, %1, does not exist.</source>
        <translation>JSON Lines 文件所在的文件夹 %1 不存在。</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="96"/>
        <source>The error rate at most is a percentage above 0 and at most 100, as 1%; &quot;%1&quot; is not.</source>
        <translation>错误率上限是大于 0 且不超过 100 的百分比，例如 1%；“%1”不是。</translation>
    </message>
    <message numerus="yes">
        <location filename="../models/enginesettings.cpp" line="320"/>
        <source>Run on %n remote agent(s)</source>
        <translation>
            <numerusform>在 %n 个远程代理上运行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../models/enginesettings.cpp" line="322"/>
        <source>Run on the local pool (%n engine(s))</source>
        <translation>
            <numerusform>在本地引擎池上运行（%n 个引擎）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="324"/>
        <source>Run on the local pool</source>
        <translation>在本地引擎池运行</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="330"/>
        <source>Start this scenario on the agents %1 and watch it live (Runs → Engines… to change)</source>
        <translation>在代理 %1 上启动此场景并实时查看（在“运行 → 引擎…”中更改）</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="333"/>
        <source>Start this scenario on local engines (%1) and watch it live (Runs → Engines… to change)</source>
        <translation>在本地引擎（%1）上启动此场景并实时查看（在“运行 → 引擎…”中更改）</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="336"/>
        <source>fitted to the CPUs it may use</source>
        <translation>按可用的 CPU 数量</translation>
    </message>
</context>
<context>
    <name>EngineText</name>
    <message>
        <location filename="../models/enginetext.cpp" line="27"/>
        <source>unknown variable ${%1}</source>
        <translation>未知变量 ${%1}</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="29"/>
        <source>unknown column ${%1}</source>
        <translation>未知的列 ${%1}</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="31"/>
        <source>unclosed ${ at offset %1</source>
        <translation>第 %1 个字符处的 ${ 没有闭合</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="32"/>
        <source>a request needs a URL</source>
        <translation>请求需要一个 URL</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="34"/>
        <source>&quot;%1&quot; is not a header name</source>
        <translation>“%1”不是合法的请求头名称</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="36"/>
        <source>&quot;%1&quot; is not an HTTP method</source>
        <translation>“%1”不是 HTTP 方法</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="37"/>
        <source>must be positive</source>
        <translation>必须大于 0</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="39"/>
        <source>the rate must be positive at some point of the run</source>
        <translation>速率必须在运行中的某个时刻大于 0</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="41"/>
        <source>at least one virtual user is needed</source>
        <translation>至少需要一个虚拟用户</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="43"/>
        <source>a ramp, step or spike stage needs a target</source>
        <translation>爬坡、阶梯或尖峰阶段需要目标值</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="45"/>
        <source>iterations per virtual user are the closed model&apos;s (load.closed.users)</source>
        <translation>每个虚拟用户的迭代次数属于封闭模型（load.closed.users）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="48"/>
        <source>must not be negative</source>
        <translation>不能为负数</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="50"/>
        <source>must not be negative (got %1)</source>
        <translation>不能为负数（当前为 %1）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="52"/>
        <source>must be from 0 to 1h (got %1)</source>
        <translation>必须在 0 到 1 小时之间（当前为 %1）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="54"/>
        <source>at least one step is needed</source>
        <translation>至少需要一个步骤</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="57"/>
        <source>choose an open model (load.open.rate) or a closed model (load.closed.users)</source>
        <translation>请选择开放模型（load.open.rate）或封闭模型（load.closed.users）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="60"/>
        <source>a request has a body or a form, not both</source>
        <translation>请求只能有请求体或表单之一，不能同时有</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="63"/>
        <source>${%1} is used before any step extracts it%2: every request of this step fails as an extract error, and the iteration ends there</source>
        <translation>${%1} 在任何步骤提取它之前就被使用%2：该步骤的每个请求都会以提取错误失败，本次迭代在此结束</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="66"/>
        <source>cannot connect to %1: the connection was refused</source>
        <translation>无法连接 %1：连接被拒绝</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="68"/>
        <source>cannot connect to %1: %2</source>
        <translation>无法连接 %1：%2</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="70"/>
        <source>connect to %1 timed out</source>
        <translation>连接 %1 超时</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="72"/>
        <source>no complete response within %1</source>
        <translation>%1 内未收到完整响应</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="73"/>
        <source>no answer within %1</source>
        <translation>%1 内没有响应</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="74"/>
        <source>not sent: %1</source>
        <translation>未发送：%1</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="76"/>
        <source>no request succeeded (%1 failed)</source>
        <translation>没有成功的请求（%1 个失败）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="78"/>
        <source>not as planned: %1 of %2 planned iterations were made (%3)%4</source>
        <translation>未按计划进行：计划 %2 次迭代，实际完成 %1 次（%3）%4</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="80"/>
        <source>stopped when asked, at %1 of %2</source>
        <translation>按要求停止，于 %1 / %2</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="81"/>
        <source>aborted: %1</source>
        <translation>已中止：%1</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="83"/>
        <source>an agent was lost and the policy is abort</source>
        <translation>丢失了一个代理，且策略为中止</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="85"/>
        <source>an engine was lost and the policy is abort</source>
        <translation>丢失了一个引擎，且策略为中止</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="86"/>
        <source>the run ended as %1</source>
        <translation>运行以 %1 结束</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="88"/>
        <source>no request completed</source>
        <translation>没有完成的请求</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="91"/>
        <source>%1 % of the requests failed (%2 of %3) and no threshold judges the error rate</source>
        <translation>%1 % 的请求失败（%3 个中的 %2 个），没有阈值判定错误率</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="95"/>
        <source>%1 arrivals were dropped (the engines fell behind, or every connection was busy)</source>
        <translation>丢弃了 %1 次到达（引擎跟不上，或所有连接都忙）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="98"/>
        <source>the engines fell behind the plan</source>
        <translation>引擎跟不上计划</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="104"/>
        <source>completed and passed</source>
        <translation>已完成，通过</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="106"/>
        <source>completed and failed: %1</source>
        <translation>已完成，未通过：%1</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="108"/>
        <source>completed and failed</source>
        <translation>已完成，未通过</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="110"/>
        <source>threshold %1 failed (%2)</source>
        <translation>阈值 %1 未通过（%2）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="113"/>
        <source>not a time such as 300ms or 1.5s</source>
        <translation>不是 300ms 或 1.5s 这样的时间</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="115"/>
        <source>%1 is not a whole number</source>
        <translation>%1 不是整数</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="116"/>
        <source>%1 is not a number</source>
        <translation>%1 不是数字</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="118"/>
        <source>not a list such as [200, 201]</source>
        <translation>不是 [200, 201] 这样的列表</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="120"/>
        <source>%1 is not true or false</source>
        <translation>%1 不是 true 或 false</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="122"/>
        <source>%1 is not one of the values this field takes</source>
        <translation>%1 不是此字段可取的值之一</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="124"/>
        <source>%1 is not a value this field takes</source>
        <translation>%1 不是此字段可取的值</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="126"/>
        <source>no field named %1 here</source>
        <translation>此处没有名为 %1 的字段</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="131"/>
        <source>stopped by a step: %1</source>
        <translation>被步骤停止：%1</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="133"/>
        <source>an error of step &quot;%1&quot; at %2 stopped the run (its onError is stopRun)</source>
        <translation>步骤“%1”在 %2 出错，停止了运行（其 onError 为 stopRun）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="135"/>
        <source>setup failed: %1</source>
        <translation>准备失败：%1</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="137"/>
        <source>%1 of %2 requests failed</source>
        <translation>%2 个请求中有 %1 个失败</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="139"/>
        <source>%1 request(s) in %2 ms%3</source>
        <translation>%2 毫秒内 %1 个请求%3</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="140"/>
        <source>values:%1</source>
        <translation>值：%1</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="142"/>
        <source>${%1} took no value</source>
        <translation>${%1} 未取得值</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="145"/>
        <source>not as planned: scenario &quot;%1&quot;: %2 of %3 planned iterations were made (%4)%5</source>
        <translation>未按计划进行：场景“%1”计划 %3 次迭代，实际完成 %2 次（%4）%5</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="148"/>
        <source>must be positive (got %1)</source>
        <translation>必须大于 0（实际为 %1）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="150"/>
        <source>an engine failed: %1</source>
        <translation>一个引擎出错：%1</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="153"/>
        <source>line %1: %2 is not run by Stampede</source>
        <translation>第 %1 行：Stampede 不运行 %2</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="155"/>
        <source>scripts run on HTTP steps; a gRPC step takes checks and extract</source>
        <translation>脚本只在 HTTP 步骤上运行；gRPC 步骤请使用检查和提取</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="158"/>
        <source>pm.request.url goes to another server (%1): a step&apos;s server is the one its URL named when the run was planned</source>
        <translation>pm.request.url 指向了另一台服务器（%1）：步骤的服务器是计划运行时其 URL 所指的那台</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="161"/>
        <source>the pre-request script skipped the request (pm.execution.skipRequest())</source>
        <translation>前置脚本跳过了该请求（pm.execution.skipRequest()）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="164"/>
        <source>check &quot;%1&quot;: %2</source>
        <translation>检查“%1”：%2</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="166"/>
        <source>status %1, expected one of %2</source>
        <translation>状态码 %1，应为 %2 之一</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="168"/>
        <source>status %1, expected %2</source>
        <translation>状态码 %1，应为 %2</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="170"/>
        <source>grpc-status %1, expected one of %2</source>
        <translation>grpc-status %1，应为 %2 之一</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="172"/>
        <source>grpc-status %1, expected %2</source>
        <translation>grpc-status %1，应为 %2</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="174"/>
        <source>took %1 ms, more than %2 ms</source>
        <translation>耗时 %1 毫秒，超过 %2 毫秒</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="176"/>
        <source>the body does not contain %1</source>
        <translation>响应体不包含 %1</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="178"/>
        <source>the body is not JSON (reading %1)</source>
        <translation>响应体不是 JSON（读取 %1 时）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="180"/>
        <source>the opposite held (negate)</source>
        <translation>相反的条件成立（取反）</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="182"/>
        <source>%1 is %2, which does not match /%3/</source>
        <translation>%1 为 %2，不匹配 /%3/</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="184"/>
        <source>%1 is %2, expected %3</source>
        <translation>%1 为 %2，应为 %3</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="186"/>
        <source>%1 is absent, expected %2</source>
        <translation>%1 不存在，应为 %2</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="188"/>
        <source>%1 is present: %2</source>
        <translation>%1 存在：%2</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="189"/>
        <source>%1 is absent</source>
        <translation>%1 不存在</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="283"/>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="284"/>
        <source>resumed</source>
        <translation>已继续</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="285"/>
        <source>load scaled</source>
        <translation>负载已调整</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="286"/>
        <source>breaker</source>
        <translation>熔断</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="287"/>
        <source>recovered</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="288"/>
        <source>stopped by the breaker</source>
        <translation>被熔断停止</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="289"/>
        <source>capacity level</source>
        <translation>容量级别</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="290"/>
        <source>capacity: settled</source>
        <translation>容量：已排空</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="291"/>
        <source>capacity: draining, run again</source>
        <translation>容量：仍在排空，重跑此级</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="292"/>
        <source>capacity: the generator lagged, run again</source>
        <translation>容量：压测机发送滞后，重跑此级</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="293"/>
        <source>server metric</source>
        <translation>服务端指标</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="294"/>
        <source>agent lost</source>
        <translation>代理丢失</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="295"/>
        <source>agent error</source>
        <translation>代理出错</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="296"/>
        <source>run aborted</source>
        <translation>运行已中止</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="297"/>
        <source>sent after loss</source>
        <translation>丢失后发送</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="298"/>
        <source>share taken over</source>
        <translation>份额已接管</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="299"/>
        <source>share went on</source>
        <translation>份额已在此继续</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="300"/>
        <source>share not taken over</source>
        <translation>份额未能接管</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="301"/>
        <source>generator saturated</source>
        <translation>压测机饱和</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="302"/>
        <source>stop asked</source>
        <translation>已请求停止</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="303"/>
        <source>lease expired</source>
        <translation>租约过期</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="304"/>
        <source>data set exhausted</source>
        <translation>数据集已用尽</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="305"/>
        <source>bad data</source>
        <translation>数据有误</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="306"/>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="307"/>
        <source>stopped by a step</source>
        <translation>被步骤停止</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="308"/>
        <source>setup</source>
        <translation>准备</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="309"/>
        <source>setup failed</source>
        <translation>准备失败</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="310"/>
        <source>teardown</source>
        <translation>清理</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="311"/>
        <source>teardown failed</source>
        <translation>清理失败</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="312"/>
        <source>console</source>
        <translation>控制台</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="313"/>
        <source>console lines not kept</source>
        <translation>未保留的控制台输出</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="100"/>
        <source>stopped by breaker%1</source>
        <translation>被熔断器停止%1</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="102"/>
        <source>interrupted: the controller ended before the run did</source>
        <translation>已中断：控制器在运行结束前退出</translation>
    </message>
    <message>
        <location filename="../models/enginetext.cpp" line="128"/>
        <source>threshold failed: %1</source>
        <translation>阈值未通过：%1</translation>
    </message>
</context>
<context>
    <name>EnginesDialog</name>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="37"/>
        <source>Engines</source>
        <translation>引擎</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="38"/>
        <source>Local pool: engines started on this machine for each run</source>
        <translation>本地引擎池：每次运行时在本机启动引擎</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="39"/>
        <source>Remote agents:</source>
        <translation>远程代理：</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="43"/>
        <source>fit to the CPUs</source>
        <translation>按可用 CPU</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="45"/>
        <source>How many engine processes to start; each takes a share of the load. By default, one per NUMA node, its threads as many as the CPUs this process may use (its affinity and CPU quota)</source>
        <translation>要启动的引擎进程数，每个承担一部分负载。默认每个 NUMA 节点一个，线程数等于本进程可用的 CPU 数（其 CPU 亲和性与 CPU 配额）</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="56"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="57"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="58"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="59"/>
        <source>Say hello to every agent: reachable, same protocol version, not busy</source>
        <translation>逐一联系每个代理：是否可达、协议版本是否一致、是否空闲</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="61"/>
        <source>file holding the agents&apos; token</source>
        <translation>保存代理令牌的文件</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="62"/>
        <source>The agents were started with --token-file; give the same token here. The project keeps only this path, never the token.</source>
        <translation>代理以 --token-file 启动；请在此提供同一令牌。项目只保存此路径，从不保存令牌本身。</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="65"/>
        <source>none: plain connections (loopback only)</source>
        <translation>无：明文连接（仅限回环地址）</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="66"/>
        <source>The CA that signed the agents&apos; TLS certificates; set it to connect with TLS</source>
        <translation>签发代理 TLS 证书的 CA；设置后使用 TLS 连接</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="68"/>
        <source>off (e.g. 127.0.0.1:9465)</source>
        <translation>关闭（例如 127.0.0.1:9465）</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="69"/>
        <source>While a run goes on, serve its figures at http://ADDRESS/metrics for an existing Prometheus to scrape: stampede_requests_total{step}, stampede_errors_total{class}, the latency histogram stampede_latency_seconds…</source>
        <translation>运行期间在 http://地址/metrics 提供运行指标，供现有的 Prometheus 抓取：stampede_requests_total{step}、stampede_errors_total{class}、延迟直方图 stampede_latency_seconds…</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="73"/>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="74"/>
        <source>Write every second of each run as a line of JSON (as k6&apos;s JSON output). It is written to FILE.part while the run goes on and renamed FILE at its end.</source>
        <translation>把每次运行的每一秒写成一行 JSON（同 k6 的 JSON 输出）。运行期间写入 FILE.part，结束时改名为 FILE。</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="78"/>
        <source>off (e.g. 1%)</source>
        <translation>关闭（例如 1%）</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="79"/>
        <source>Judge every run of this project by error_rate &lt; this too, unless the scenario&apos;s thresholds judge the error rate: a run whose requests mostly failed cannot pass on its latency thresholds alone</source>
        <translation>本项目的每次运行也以 error_rate &lt; 此值判定，除非场景的阈值已判定错误率：大部分请求失败的运行不能仅凭延迟阈值通过</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="84"/>
        <source>off (e.g. http://127.0.0.1:9090/api/v1/write)</source>
        <translation>关闭（例如 http://127.0.0.1:9090/api/v1/write）</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="85"/>
        <source>Push every second of each run to a Prometheus remote write receiver (Prometheus with --web.enable-remote-write-receiver, or another receiver of remote write 1.0)</source>
        <translation>把每次运行的每一秒推送到 Prometheus 远程写入接收端（开启 --web.enable-remote-write-receiver 的 Prometheus，或其他 remote write 1.0 接收端）</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="99"/>
        <source>Token file:</source>
        <translation>令牌文件：</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="99"/>
        <source>Token file</source>
        <translation>令牌文件</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="100"/>
        <source>TLS CA file:</source>
        <translation>TLS CA 文件：</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="100"/>
        <source>CA certificate</source>
        <translation>CA 证书</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="103"/>
        <source>Engines:</source>
        <translation>引擎数：</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="106"/>
        <source>Live outputs of every run</source>
        <translation>每次运行的实时输出</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="108"/>
        <source>Prometheus endpoint:</source>
        <translation>Prometheus 端点：</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="112"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="117"/>
        <source>JSON lines file</source>
        <translation>JSON Lines 文件</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="117"/>
        <source>JSON lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="121"/>
        <source>JSON lines file:</source>
        <translation>JSON Lines 文件：</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="122"/>
        <source>Remote write URL:</source>
        <translation>远程写入 URL：</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="123"/>
        <source>Every run&apos;s verdict</source>
        <translation>每次运行的判定</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="125"/>
        <source>Error rate at most:</source>
        <translation>错误率上限：</translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="150"/>
        <source>%1 of %2 agents ready.</source>
        <translation>%2 个代理中 %1 个就绪。</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/enginesdialog.cpp" line="190"/>
        <source>Checking %n agent(s)…</source>
        <translation>
            <numerusform>正在检查 %n 个代理…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="204"/>
        <source>List at least one agent, or run on the local pool.</source>
        <translation>请至少列出一个代理，或使用本地引擎池运行。</translation>
    </message>
</context>
<context>
    <name>EnvironmentEditor</name>
    <message>
        <location filename="../widgets/environmenteditor.cpp" line="21"/>
        <source>Variable</source>
        <translation>变量</translation>
    </message>
    <message>
        <location filename="../widgets/environmenteditor.cpp" line="21"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../widgets/environmenteditor.cpp" line="26"/>
        <source>Values for ${name} in URLs, headers and bodies when this environment is selected. A run takes them too, under its scenario&apos;s data sets and generators and the values its steps extract.</source>
        <translation>选中此环境时，URL、请求头和请求体中 ${name} 的取值。运行也使用这些值，但场景的数据集、生成器以及步骤提取的值优先于它们。</translation>
    </message>
    <message>
        <location filename="../widgets/environmenteditor.cpp" line="30"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../widgets/environmenteditor.cpp" line="32"/>
        <source>Remove the selected variables (Delete)</source>
        <translation>删除选中的变量（Delete）</translation>
    </message>
</context>
<context>
    <name>ErrorClass</name>
    <message>
        <location filename="../models/runsecond.cpp" line="56"/>
        <source>connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location filename="../models/runsecond.cpp" line="56"/>
        <source>reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <location filename="../models/runsecond.cpp" line="57"/>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../models/runsecond.cpp" line="57"/>
        <source>http 4xx</source>
        <translation>HTTP 4xx</translation>
    </message>
    <message>
        <location filename="../models/runsecond.cpp" line="58"/>
        <source>http 5xx</source>
        <translation>HTTP 5xx</translation>
    </message>
    <message>
        <location filename="../models/runsecond.cpp" line="58"/>
        <source>protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <location filename="../models/runsecond.cpp" line="59"/>
        <source>tls</source>
        <translation>TLS</translation>
    </message>
    <message>
        <location filename="../models/runsecond.cpp" line="59"/>
        <source>grpc</source>
        <translation>gRPC 状态</translation>
    </message>
    <message>
        <location filename="../models/runsecond.cpp" line="60"/>
        <source>check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../models/runsecond.cpp" line="60"/>
        <source>extract</source>
        <translation>提取</translation>
    </message>
    <message>
        <location filename="../models/runsecond.cpp" line="61"/>
        <source>render</source>
        <translation>渲染</translation>
    </message>
    <message>
        <location filename="../models/runsecond.cpp" line="61"/>
        <source>script</source>
        <translation>脚本</translation>
    </message>
</context>
<context>
    <name>FieldLabel</name>
    <message>
        <location filename="../models/scenariocheck.cpp" line="123"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="124"/>
        <source>method</source>
        <translation>方法</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="125"/>
        <source>headers</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="126"/>
        <source>body</source>
        <translation>请求体</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="127"/>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="128"/>
        <source>request</source>
        <translation>请求</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="129"/>
        <location filename="../models/scenariocheck.cpp" line="130"/>
        <location filename="../models/scenariocheck.cpp" line="139"/>
        <location filename="../models/scenariocheck.cpp" line="140"/>
        <source>think time</source>
        <translation>思考时间</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="131"/>
        <source>checks</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="132"/>
        <source>extraction</source>
        <translation>提取</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="133"/>
        <source>test script</source>
        <translation>测试脚本</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="134"/>
        <source>pre-request script</source>
        <translation>预请求脚本</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="135"/>
        <source>replay target</source>
        <translation>回放目标</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="136"/>
        <source>replay</source>
        <translation>回放</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="137"/>
        <source>rate</source>
        <translation>速率</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="138"/>
        <source>users</source>
        <translation>用户数</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="141"/>
        <source>target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="142"/>
        <source>duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="143"/>
        <source>expression</source>
        <translation>表达式</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="144"/>
        <source>CSV file</source>
        <translation>CSV 文件</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="145"/>
        <source>rendezvous</source>
        <translation>集合点</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="146"/>
        <source>message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="147"/>
        <source>gRPC call</source>
        <translation>gRPC 调用</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="148"/>
        <source>CSV</source>
        <translation>CSV</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="164"/>
        <source>Step %1</source>
        <translation>步骤 %1</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="165"/>
        <source>Step &quot;%1&quot;</source>
        <translation>步骤“%1”</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="170"/>
        <source>Threshold %1</source>
        <translation>阈值 %1</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="171"/>
        <source>Threshold &quot;%1&quot;</source>
        <translation>阈值“%1”</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="175"/>
        <source>Variable %1</source>
        <translation>变量 %1</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="176"/>
        <source>Variable &quot;%1&quot;</source>
        <translation>变量“%1”</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="180"/>
        <source>Notifications · webhook %1</source>
        <translation>通知 · 第 %1 个 Webhook</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="183"/>
        <source>Scenario &quot;%1&quot;</source>
        <translation>场景“%1”</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="190"/>
        <source>Load · stage %1</source>
        <translation>负载 · 阶段 %1</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="194"/>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="196"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="197"/>
        <source>Connections</source>
        <translation>连接数</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="198"/>
        <source>Streams per connection</source>
        <translation>每连接流数</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="199"/>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="200"/>
        <source>Stress tag</source>
        <translation>压测标记</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="201"/>
        <source>Breaker</source>
        <translation>熔断器</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="202"/>
        <source>Schedule</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="203"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="204"/>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="205"/>
        <source>Variables</source>
        <translation>变量</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="206"/>
        <source>Thresholds</source>
        <translation>阈值</translation>
    </message>
    <message>
        <location filename="../models/scenariocheck.cpp" line="207"/>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
</context>
<context>
    <name>GrpcRequestPane</name>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="39"/>
        <source>host:port (h2c) or https://host:port — ${variables} allowed</source>
        <translation>host:port（h2c）或 https://host:port — 可用 ${变量}</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="40"/>
        <source>The gRPC server. host:port and http:// speak HTTP/2 without TLS (h2c);
https:// speaks HTTP/2 over TLS, with the server&apos;s certificate verified.</source>
        <translation>gRPC 服务器。host:port 与 http:// 使用不加密的 HTTP/2（h2c）；
https:// 使用 TLS 上的 HTTP/2，并校验服务器证书。</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="46"/>
        <source>package.Service/Method, from the schema (Schema tab)</source>
        <translation>package.Service/Method，取自模式（“模式”页）</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="47"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="48"/>
        <source>Call the method once (Ctrl+Enter)</source>
        <translation>调用一次该方法（Ctrl+Enter）</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="56"/>
        <source>The request message as JSON (proto3&apos;s mapping); ${variables} allowed</source>
        <translation>请求消息的 JSON（proto3 映射）；可用 ${变量}</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="57"/>
        <source>Fill with the message&apos;s fields</source>
        <translation>填入消息的全部字段</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="58"/>
        <source>Replace the JSON with every field of the request message at a neutral value</source>
        <translation>用请求消息的全部字段（取中性值）替换 JSON</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="64"/>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="64"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="66"/>
        <source>Sent as HTTP/2 headers with the call; keys are lower-case</source>
        <translation>随调用作为 HTTP/2 头发送；键为小写</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="115"/>
        <source>Import .proto files…</source>
        <translation>导入 .proto 文件…</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="116"/>
        <source>The files are read now and kept in the project as descriptors;
their imports are looked for beside them, then among the well-known types</source>
        <translation>文件现在读入，并以描述符形式保存在项目中；
其导入先在同目录查找，再在知名类型中查找</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="118"/>
        <source>Fetch by reflection</source>
        <translation>通过反射获取</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="120"/>
        <source>Ask the target&apos;s gRPC server reflection service for its descriptors</source>
        <translation>向目标的 gRPC 服务器反射服务请求描述符</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="121"/>
        <location filename="../widgets/grpcrequestpane.cpp" line="221"/>
        <source>No schema yet: import the .proto files, or fetch them by reflection.</source>
        <translation>尚无模式：请导入 .proto 文件，或通过反射获取。</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="127"/>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="128"/>
        <source>Sent as grpc-timeout; the call fails as DEADLINE_EXCEEDED after it</source>
        <translation>作为 grpc-timeout 发送；超过后调用以 DEADLINE_EXCEEDED 失败</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="137"/>
        <source>Verify the server&apos;s certificate (https)</source>
        <translation>校验服务器证书（https）</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="140"/>
        <source>Against the system&apos;s CAs, for the target&apos;s host. Turn off for a server
with a self-signed or internal certificate.</source>
        <translation>按系统 CA 校验目标主机的证书。服务器使用自签名
或内部证书时请关闭。</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="143"/>
        <source>Deadline:</source>
        <translation>截止时间：</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="73"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="74"/>
        <location filename="../widgets/grpcrequestpane.cpp" line="174"/>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="75"/>
        <source>Metadata</source>
        <translation>元数据</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="76"/>
        <source>Schema &amp;&amp; options</source>
        <translation>模式与选项</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="83"/>
        <source>Trailer</source>
        <translation>尾部</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="78"/>
        <source>Response message</source>
        <translation>响应消息</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="83"/>
        <source>Trailers</source>
        <translation>尾部</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="85"/>
        <source>A streaming call&apos;s messages both ways: ↑ sent, ↓ received, with their time from the call&apos;s start</source>
        <translation>流式调用双向的每条消息：↑ 发送，↓ 接收，时间从调用开始算起</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="88"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="151"/>
        <source>Import .proto files</source>
        <translation>导入 .proto 文件</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="151"/>
        <source>Protocol buffers (*.proto)</source>
        <translation>Protocol Buffers（*.proto）</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="174"/>
        <source>Stream ●</source>
        <translation>流 ●</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="193"/>
        <source>Not defined in the environment, the data sets or the scenarios: ${%1}</source>
        <translation>环境、数据集和场景都没有定义：${%1}</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="220"/>
        <source>Schema from %1 — services: %2</source>
        <translation>模式来自 %1 — 服务：%2</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="233"/>
        <source>Not imported: %1</source>
        <translation>未导入：%1</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="251"/>
        <source>Asking %1 for its descriptors…</source>
        <translation>正在向 %1 请求描述符…</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="266"/>
        <source>Not fetched: %1</source>
        <translation>未获取：%1</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="271"/>
        <source>reflection at %1</source>
        <translation>%1 的反射</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="342"/>
        <source>Not sent: %1</source>
        <translation>未发送：%1</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="346"/>
        <source>no schema: import the .proto files or fetch them by reflection (Schema tab)</source>
        <translation>没有模式：请导入 .proto 文件或通过反射获取（“模式”页）</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="355"/>
        <source>Calling…</source>
        <translation>调用中…</translation>
    </message>
    <message>
        <location filename="../widgets/grpcrequestpane.cpp" line="373"/>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
</context>
<context>
    <name>GrpcStreamBox</name>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="21"/>
        <source>Another message as JSON; ${name} is replaced when it is sent</source>
        <translation>再一条消息（JSON）；${name} 在发送时替换</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="23"/>
        <source>Add message</source>
        <translation>添加消息</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="24"/>
        <source>Send this message after the Message tab&apos;s and those above it</source>
        <translation>在“消息”页的 JSON 及上面各条之后发送这条消息</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="25"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="28"/>
        <source>Sent in order after the Message tab&apos;s JSON</source>
        <translation>在“消息”页的 JSON 之后按顺序发送</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="32"/>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="33"/>
        <source>all at once</source>
        <translation>一次全部发送</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="34"/>
        <source>Between the messages sent</source>
        <translation>发送的消息之间的间隔</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="36"/>
        <source>Send each message after the reply to the one before</source>
        <translation>收到上一条的回复后再发送下一条</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="38"/>
        <source>Request/reply: each message latency is then one round trip</source>
        <translation>请求/应答：每条消息延迟即一次往返</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="50"/>
        <source>Interval:</source>
        <translation>间隔：</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="57"/>
        <source>the stream&apos;s end</source>
        <translation>直到流结束</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="58"/>
        <source>Messages to wait for, then the call is ended (CANCEL); the last one is the answer</source>
        <translation>等待的消息数，收齐后结束调用（CANCEL）；最后一条即应答</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="62"/>
        <source>any message</source>
        <translation>任意消息</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="63"/>
        <source>Only messages whose JSON holds this text are awaited (all are counted)</source>
        <translation>只等待 JSON 中含有此文本的消息（所有消息都会计数）</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="65"/>
        <source>Wait for:</source>
        <translation>等待：</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="66"/>
        <source>Holding:</source>
        <translation>包含：</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="96"/>
        <source>No schema says yet whether the method streams: import the .proto files or fetch them by reflection (Schema tab).</source>
        <translation>还没有描述可以说明该方法是否为流式：请导入 .proto 文件或通过反射获取（“模式与选项”页）。</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="99"/>
        <source>%1 is unary: one message out, one answer.</source>
        <translation>%1 是一元方法：发送一条消息，收到一个应答。</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="99"/>
        <source>The method</source>
        <translation>该方法</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="101"/>
        <source>%1 streams both ways: the Message tab&apos;s JSON goes first, then these messages; the answer is the last awaited message.</source>
        <translation>%1 为双向流：先发送“消息”页的 JSON，再发送这些消息；应答为最后一条等待到的消息。</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="104"/>
        <source>%1 streams from the client: the Message tab&apos;s JSON goes first, then these messages; the server answers once.</source>
        <translation>%1 为客户端流：先发送“消息”页的 JSON，再发送这些消息；服务端应答一次。</translation>
    </message>
    <message>
        <location filename="../widgets/grpcstreambox.cpp" line="107"/>
        <source>%1 streams from the server: it sends the Message tab&apos;s JSON and reads the messages that come; the answer is the last awaited one.</source>
        <translation>%1 为服务端流：发送“消息”页的 JSON 并读取返回的消息；应答为最后一条等待到的消息。</translation>
    </message>
</context>
<context>
    <name>KeyValueTable</name>
    <message>
        <location filename="../widgets/keyvaluetable.cpp" line="82"/>
        <source>Remove row</source>
        <translation>删除行</translation>
    </message>
    <message>
        <location filename="../widgets/keyvaluetable.cpp" line="90"/>
        <source>Choose files…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <location filename="../widgets/keyvaluetable.cpp" line="124"/>
        <source>Secret</source>
        <translation>机密</translation>
    </message>
    <message>
        <location filename="../widgets/keyvaluetable.cpp" line="125"/>
        <source>A secret value is drawn as dots and is not written into bundles or exported collections: give it to a run with --var or --env on the machine that runs it</source>
        <translation>机密值显示为圆点，不会写入场景包或导出的集合：请在执行运行的机器上用 --var 或 --env 提供它</translation>
    </message>
    <message>
        <location filename="../widgets/keyvaluetable.cpp" line="165"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../widgets/keyvaluetable.cpp" line="167"/>
        <source>The field sends files: its value is their paths, separated by &quot;;&quot; (relative to the project&apos;s folder, or absolute). Each is read when the request is sent or the run starts, and sent as it is, with its name and a Content-Type from its extension. Right-click a row to choose them.</source>
        <translation>该字段发送文件：值为文件路径，以“;”分隔（相对于项目所在文件夹，或绝对路径）。每个文件在发送请求或运行开始时读取，按原样发送，附带文件名及按扩展名确定的 Content-Type。右键单击一行可选择文件。</translation>
    </message>
    <message>
        <location filename="../widgets/keyvaluetable.cpp" line="233"/>
        <source>Files to send</source>
        <translation>要发送的文件</translation>
    </message>
    <message>
        <location filename="../widgets/keyvaluetable.cpp" line="279"/>
        <source>Not defined: ${%1}</source>
        <translation>未定义：${%1}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="84"/>
        <source>Filter requests, scenarios, data sets…</source>
        <translation>筛选请求、场景、数据集…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="105"/>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="131"/>
        <source>The environment whose values fill ${variables} when you send</source>
        <translation>发送时用于填充 ${变量} 的环境</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="177"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="190"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="191"/>
        <source>&amp;New Project…</source>
        <translation>新建项目(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="217"/>
        <source>A server for a gateway&apos;s mirror (nginx&apos;s mirror directive): every request it gets, masked, kept as a traffic set</source>
        <translation>接收网关镜像（nginx 的 mirror 指令）的服务：收到的每个请求脱敏后存为流量集</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="487"/>
        <source>New Project</source>
        <translation>新建项目</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="487"/>
        <location filename="../widgets/mainwindow.cpp" line="495"/>
        <source>Stampede projects (*.stampede)</source>
        <translation>Stampede 项目 (*.stampede)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="193"/>
        <source>&amp;Open Project…</source>
        <translation>打开项目(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="495"/>
        <source>Open Project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="194"/>
        <source>Open Re&amp;port…</source>
        <translation>打开报告(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="115"/>
        <source>The demo could not be opened: %1</source>
        <translation>无法打开演示：%1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="195"/>
        <source>Open Report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="196"/>
        <source>Stampede reports (*.streport);;Projects (*.stampede)</source>
        <translation>Stampede 报告 (*.streport);;项目 (*.stampede)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="200"/>
        <source>Import &amp;Traffic…</source>
        <translation>导入流量(&amp;T)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="202"/>
        <location filename="../widgets/mainwindow.cpp" line="212"/>
        <source>Open or create a project first: the traffic is stored in it.</source>
        <translation>请先打开或新建项目：流量将存储在项目中。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="207"/>
        <source>Traffic imported.</source>
        <translation>流量已导入。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="209"/>
        <source>Record Traffic from a &amp;Gateway…</source>
        <translation>从网关录制流量(&amp;G)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="219"/>
        <source>Import &amp;Collection…</source>
        <translation>导入集合(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="220"/>
        <source>Postman Collection v2.1, OpenAPI 3 (JSON or YAML), HAR 1.2 or curl commands</source>
        <translation>Postman Collection v2.1、OpenAPI 3（JSON 或 YAML）、HAR 1.2 或 curl 命令</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="221"/>
        <source>&amp;Export Collection to Postman…</source>
        <translation>导出集合为 Postman(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="222"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="229"/>
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="231"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="232"/>
        <source>Everything is saved as you edit it.</source>
        <translation>所有内容在编辑时已自动保存。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="234"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="236"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="237"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="239"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="248"/>
        <source>&amp;Request</source>
        <translation>请求(&amp;R)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="249"/>
        <source>&amp;History…</source>
        <translation>历史记录(&amp;H)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="251"/>
        <source>&amp;New Request</source>
        <translation>新建请求(&amp;N)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="253"/>
        <source>&amp;Send</source>
        <translation>发送(&amp;S)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="258"/>
        <source>Copy as &amp;curl</source>
        <translation>复制为 &amp;curl 命令</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="261"/>
        <source>The request is on the clipboard as a curl command.</source>
        <translation>请求已作为 curl 命令复制到剪贴板。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="264"/>
        <source>&amp;Close Tab</source>
        <translation>关闭标签页(&amp;C)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="271"/>
        <source>&amp;Project</source>
        <translation>项目(&amp;P)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="276"/>
        <source>New &amp;Collection</source>
        <translation>新建集合(&amp;C)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="277"/>
        <source>New &amp;Folder</source>
        <translation>新建文件夹(&amp;F)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="278"/>
        <source>New &amp;Environment</source>
        <translation>新建环境(&amp;E)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="279"/>
        <source>New &amp;Data Set</source>
        <translation>新建数据集(&amp;D)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="280"/>
        <source>New &amp;Scenario</source>
        <translation>新建场景(&amp;S)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="285"/>
        <source>New Test &amp;Plan</source>
        <translation>新建测试计划(&amp;P)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="286"/>
        <source>Several scenarios in one run, each with its own load, with a setup and a teardown</source>
        <translation>一次运行多个场景，各自有自己的负载，并带有准备和清理步骤</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="289"/>
        <source>&amp;Rename</source>
        <translation>重命名(&amp;R)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="295"/>
        <source>D&amp;uplicate</source>
        <translation>复制副本(&amp;U)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="297"/>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="301"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="302"/>
        <source>Delete &quot;%1&quot; and everything in it?</source>
        <translation>删除“%1”及其包含的全部内容？</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="312"/>
        <source>R&amp;uns</source>
        <translation>运行(&amp;U)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="313"/>
        <source>Run &amp;Collection…</source>
        <translation>运行集合(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="316"/>
        <source>Run the selected collection or folder as Postman&apos;s Runner and newman do: each request in order, each test&apos;s result</source>
        <translation>像 Postman 的 Runner 和 newman 那样运行所选集合或文件夹：按顺序发送每个请求，显示每个测试的结果</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="321"/>
        <source>Run &amp;History…</source>
        <translation>运行历史(&amp;H)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="322"/>
        <source>&amp;Engines…</source>
        <translation>引擎(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="323"/>
        <source>&amp;Schedules…</source>
        <translation>定时任务(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="325"/>
        <source>&amp;Settings</source>
        <translation>设置(&amp;S)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="326"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="333"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="343"/>
        <source>The language changes when Stampede starts again.</source>
        <translation>语言将在 Stampede 重新启动后生效。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="347"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="355"/>
        <source>Environment: </source>
        <translation>环境：</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="378"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="428"/>
        <location filename="../widgets/mainwindow.cpp" line="549"/>
        <source>My requests</source>
        <translation>我的请求</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="429"/>
        <source>local</source>
        <translation>本地</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="508"/>
        <source>%1 — Stampede</source>
        <translation>%1 — Stampede</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="509"/>
        <location filename="../widgets/mainwindow.cpp" line="516"/>
        <location filename="../widgets/mainwindowquit.cpp" line="55"/>
        <source>Stampede</source>
        <translation>Stampede</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="522"/>
        <source>New test plan</source>
        <translation>新建测试计划</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="525"/>
        <source>scenario 1</source>
        <translation>场景 1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="553"/>
        <source>New request</source>
        <translation>新请求</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="554"/>
        <source>New folder</source>
        <translation>新文件夹</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="555"/>
        <source>New collection</source>
        <translation>新集合</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="556"/>
        <source>New environment</source>
        <translation>新环境</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="557"/>
        <source>New data set</source>
        <translation>新数据集</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="558"/>
        <source>New scenario</source>
        <translation>新场景</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="345"/>
        <source>Replay of %1</source>
        <translation>%1 的回放</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="833"/>
        <source>Set in the environment &quot;%1&quot;: %2</source>
        <translation>已写入环境 “%1”：%2</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="53"/>
        <source>capacity of %1</source>
        <translation>%1 的容量</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="80"/>
        <source>stampede-cli, which runs the engines, was not found next to Stampede or on PATH.</source>
        <translation>未找到运行引擎的 stampede-cli（应在 Stampede 同目录或 PATH 中）。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="89"/>
        <location filename="../widgets/mainwindowruns.cpp" line="98"/>
        <source>The run cannot start: %1</source>
        <translation>无法开始运行：%1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="107"/>
        <source>Requests and tests</source>
        <translation>请求和测试</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="108"/>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="116"/>
        <source>Run: %1</source>
        <translation>运行：%1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="118"/>
        <source>Run %1 started</source>
        <translation>运行 %1 已开始</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="136"/>
        <location filename="../widgets/mainwindowruns.cpp" line="163"/>
        <source>Select a collection, a folder or a request in one to run it.</source>
        <translation>请选择一个集合、文件夹或其中的请求再运行。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="172"/>
        <source>The collection cannot run: %1</source>
        <translation>集合无法运行：%1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="187"/>
        <location filename="../widgets/mainwindowruns.cpp" line="223"/>
        <source>Report: %1</source>
        <translation>报告：%1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="204"/>
        <source>Compare: %1 / %2</source>
        <translation>对比：%1 / %2</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="259"/>
        <source>%1  %2  %3 s  %4  %5  %6</source>
        <translation>%1  %2  %3 秒  %4  %5  %6</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="316"/>
        <source>Trend: %1</source>
        <translation>趋势：%1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="29"/>
        <source>The send was not kept in the history: %1</source>
        <translation>此次发送未能记入历史：%1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="45"/>
        <source>From the history</source>
        <translation>来自历史记录</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="47"/>
        <source>%1 (sent %2)</source>
        <translation>%1（发送于 %2）</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="62"/>
        <location filename="../widgets/mainwindowruns.cpp" line="230"/>
        <location filename="../widgets/mainwindowruns.cpp" line="251"/>
        <location filename="../widgets/mainwindowruns.cpp" line="357"/>
        <source>No project is open.</source>
        <translation>尚未打开任何项目。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="64"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="66"/>
        <source>Search: name, method, URL, status…</source>
        <translation>搜索：名称、方法、URL、状态码…</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="74"/>
        <source>How many sends the project keeps; the oldest go first</source>
        <translation>项目保留多少次发送；最早的先删除</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="82"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="95"/>
        <source>No answer: %1</source>
        <translation>没有应答：%1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="97"/>
        <source>Open as a new request</source>
        <translation>作为新请求打开</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="103"/>
        <source>Keep the last</source>
        <translation>保留最近</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowhistory.cpp" line="105"/>
        <source>sends</source>
        <translation>次发送</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="238"/>
        <source>The engine settings cannot be saved: %1</source>
        <translation>无法保存引擎设置：%1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="255"/>
        <source>Run History</source>
        <translation>运行历史</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="268"/>
        <source>Open report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="269"/>
        <source>Compare two (baseline first)</source>
        <translation>对比两次（基线在前）</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="270"/>
        <source>Select two runs: the upper one is the baseline</source>
        <translation>选择两次运行：上面的一次为基线</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="271"/>
        <source>Trend of its scenario</source>
        <translation>其场景的趋势</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="272"/>
        <source>The selected run&apos;s scenario over its last runs: rate, error rate and percentiles, each against a baseline you mark</source>
        <translation>所选运行的场景在最近各次运行中的速率、错误率和百分位，各与你标记的基线比较</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="290"/>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="290"/>
        <source>Select exactly two runs.</source>
        <translation>请恰好选择两次运行。</translation>
    </message>
    <message>
        <location filename="../models/schedulelist.cpp" line="30"/>
        <source>not understood: %1</source>
        <translation>无法识别：%1</translation>
    </message>
    <message>
        <location filename="../models/schedulelist.cpp" line="32"/>
        <source>installed</source>
        <translation>已安装</translation>
    </message>
    <message>
        <location filename="../models/schedulelist.cpp" line="33"/>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <location filename="../models/schedulelist.cpp" line="34"/>
        <source>never run</source>
        <translation>从未运行</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="364"/>
        <source>Schedules</source>
        <translation>定时任务</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="366"/>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="366"/>
        <source>Schedule</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="366"/>
        <source>Timer</source>
        <translation>定时器</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="366"/>
        <source>Last run</source>
        <translation>最近一次运行</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="375"/>
        <source>No scenario has a schedule: give one in the scenario&apos;s Schedule field.</source>
        <translation>没有场景设置计划：请在场景的“计划”栏中填写。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="376"/>
        <source>Install the timers with: stampede-cli schedule install %1</source>
        <translation>用以下命令安装定时器：stampede-cli schedule install %1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowruns.cpp" line="383"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindow.cpp" line="794"/>
        <source>(no environment)</source>
        <translation>（无环境）</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="26"/>
        <location filename="../widgets/mainwindowimport.cpp" line="38"/>
        <source>Open or create a project first: the requests are stored in it.</source>
        <translation>请先打开或新建项目：请求保存在项目中。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="28"/>
        <location filename="../widgets/mainwindowimport.cpp" line="72"/>
        <source>Import Collection</source>
        <translation>导入集合</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="29"/>
        <source>Collections (*.json *.yaml *.yml *.har *.sh *.curl *.txt);;Postman collections (*.json);;OpenAPI 3 (*.json *.yaml *.yml);;HAR (*.har);;curl commands (*.sh *.curl *.txt);;All files (*)</source>
        <translation>集合 (*.json *.yaml *.yml *.har *.sh *.curl *.txt);;Postman 集合 (*.json);;OpenAPI 3 (*.json *.yaml *.yml);;HAR (*.har);;curl 命令 (*.sh *.curl *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="43"/>
        <source>%1 is larger than 64 MiB.</source>
        <translation>%1 大于 64 MiB。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="47"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="55"/>
        <source>Nothing was imported from %1: %2</source>
        <translation>没有从 %1 导入任何内容：%2</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="62"/>
        <source>1 request imported from %2 (%3).</source>
        <translation>已从 %2（%3）导入 1 个请求。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="63"/>
        <source>%1 requests imported from %2 (%3).</source>
        <translation>已从 %2（%3）导入 %1 个请求。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="67"/>
        <source>Its variables are in the environment &quot;%1&quot;.</source>
        <translation>其变量在环境“%1”中。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="73"/>
        <source>Some parts could not be imported (%1); see the details.</source>
        <translation>有些部分无法导入（%1 项）；见详细信息。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="90"/>
        <source>Select a collection (or a request in it) to export.</source>
        <translation>请选择要导出的集合（或其中的请求）。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="91"/>
        <source>Export Collection to Postman</source>
        <translation>导出集合为 Postman</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="93"/>
        <source>Postman collections (*.json)</source>
        <translation>Postman 集合 (*.json)</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="130"/>
        <source>The export would overwrite the project itself.</source>
        <translation>导出会覆盖项目本身。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="137"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="142"/>
        <source>Exported to %1.</source>
        <translation>已导出到 %1。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowimport.cpp" line="143"/>
        <source>Exported to %1 without: %2</source>
        <translation>已导出到 %1，不含：%2</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowmock.cpp" line="24"/>
        <source>The project&apos;s mock server listens on %1</source>
        <translation>项目的模拟服务器正在监听 %1</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowmock.cpp" line="27"/>
        <location filename="../widgets/mainwindowmock.cpp" line="31"/>
        <source>The project&apos;s mock server did not start: %1</source>
        <translation>项目的模拟服务器未能启动：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/mainwindowquit.cpp" line="55"/>
        <source>%n run(s) are still going on.</source>
        <translation>
            <numerusform>仍有 %n 个运行正在进行。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowquit.cpp" line="58"/>
        <source>Stop them and save what they measured, or keep them running without the window: they end as planned and are saved in the project.</source>
        <translation>停止它们并保存已测得的数据，或在关闭窗口后继续运行：它们将按计划结束并保存在项目中。</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowquit.cpp" line="60"/>
        <source>Stop them and save what they measured before the project closes?</source>
        <translation>在关闭项目之前停止它们并保存已测得的数据吗？</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowquit.cpp" line="61"/>
        <source>Stop and save</source>
        <translation>停止并保存</translation>
    </message>
    <message>
        <location filename="../widgets/mainwindowquit.cpp" line="65"/>
        <source>Keep running detached</source>
        <translation>在后台继续运行</translation>
    </message>
</context>
<context>
    <name>MessageLog</name>
    <message>
        <location filename="../widgets/messagelog.cpp" line="9"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../widgets/messagelog.cpp" line="9"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../widgets/messagelog.cpp" line="23"/>
        <source>sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <location filename="../widgets/messagelog.cpp" line="23"/>
        <source>received</source>
        <translation>已接收</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/messagelog.cpp" line="27"/>
        <source>binary, %n byte(s): </source>
        <translation>
            <numerusform>二进制，%n 字节：</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>NotifyTable</name>
    <message>
        <location filename="../widgets/notifytable.cpp" line="27"/>
        <source>Webhook URL</source>
        <translation>Webhook 地址</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="27"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="27"/>
        <source>Secret</source>
        <translation>签名密钥</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="27"/>
        <source>When</source>
        <translation>时机</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="30"/>
        <source>Where the run posts its messages: a robot&apos;s or a service&apos;s incoming webhook (http:// or https://); ${name} takes a constant or the environment&apos;s value</source>
        <translation>运行发送消息的地址：机器人或服务的传入 Webhook（http:// 或 https://）；${name} 取常量或环境中的值</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="33"/>
        <source>The form the webhook takes: plain (the message as JSON), Slack, Feishu/Lark, DingTalk or WeCom</source>
        <translation>Webhook 接受的格式：plain（消息本身的 JSON）、Slack、飞书/Lark、钉钉或企业微信</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="35"/>
        <source>Feishu and DingTalk: the robot&apos;s signing secret (its messages are signed with it). Write ${name} and keep the value as an environment&apos;s secret</source>
        <translation>飞书和钉钉：机器人的签名密钥（消息用它签名）。请写 ${name}，并把值保存为环境中的机密值</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="38"/>
        <source>When to post: start, breaker, threshold, end, joined by + (empty: all four)</source>
        <translation>何时发送：start、breaker、threshold、end，用 + 连接（留空：全部四种）</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="43"/>
        <source>Add webhook</source>
        <translation>添加 Webhook</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="44"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="45"/>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="47"/>
        <source>Posts a test message to the chosen webhook now, as a run would</source>
        <translation>立即向所选 Webhook 发送一条测试消息，与运行时的发送方式相同</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="142"/>
        <source>Add a webhook first</source>
        <translation>请先添加一个 Webhook</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="147"/>
        <source>Posting a test message…</source>
        <translation>正在发送测试消息…</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="155"/>
        <source>Delivered (%1)</source>
        <translation>已送达（%1）</translation>
    </message>
    <message>
        <location filename="../widgets/notifytable.cpp" line="156"/>
        <source>Not delivered: %1</source>
        <translation>未送达：%1</translation>
    </message>
</context>
<context>
    <name>PlanEditor</name>
    <message>
        <location filename="../widgets/planeditor.cpp" line="40"/>
        <source>Run the plan</source>
        <translation>运行计划</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="42"/>
        <source>Run every scenario of the plan side by side, with its setup before and its teardown after</source>
        <translation>并行运行计划中的每个场景，之前执行准备步骤，之后执行清理步骤</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="45"/>
        <source>The plan&apos;s parts: its own defaults and thresholds, the setup (run once before the load), each scenario (with its own load), the teardown (run once after it)</source>
        <translation>计划的各部分：计划自身的默认值和阈值、准备（负载前运行一次）、各个场景（各有自己的负载）、清理（负载后运行一次）</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="53"/>
        <source>Add scenario</source>
        <translation>添加场景</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="55"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="56"/>
        <source>Remove the chosen scenario from the plan</source>
        <translation>从计划中移除所选场景</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="57"/>
        <source>Up</source>
        <translation>上移</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="58"/>
        <source>Down</source>
        <translation>下移</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="78"/>
        <source>Plan:</source>
        <translation>计划：</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="127"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="128"/>
        <source>When this scenario&apos;s load starts, after the run&apos;s start</source>
        <translation>该场景的负载在运行开始后多久开始</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="130"/>
        <source>Starts after:</source>
        <translation>开始于：</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="251"/>
        <source>Plan: defaults and thresholds</source>
        <translation>计划：默认值与阈值</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="251"/>
        <source>Setup (once, before the load)</source>
        <translation>准备（负载前运行一次）</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="255"/>
        <source>(a scenario without a name)</source>
        <translation>（未命名的场景）</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="257"/>
        <source>Teardown (once, after the load)</source>
        <translation>清理（负载后运行一次）</translation>
    </message>
    <message>
        <location filename="../widgets/planeditor.cpp" line="293"/>
        <source>scenario %1</source>
        <translation>场景 %1</translation>
    </message>
</context>
<context>
    <name>ProjectMock</name>
    <message>
        <location filename="../models/projectmock.cpp" line="80"/>
        <source>start it yourself with: stampede-cli mock --listen 127.0.0.1:8080 --rules FILE, the rules being the project&apos;s, and set ${%1} to http://127.0.0.1:8080</source>
        <translation>请自行启动：stampede-cli mock --listen 127.0.0.1:8080 --rules 文件（使用项目的规则），并把 ${%1} 设为 http://127.0.0.1:8080</translation>
    </message>
    <message>
        <location filename="../models/projectmock.cpp" line="87"/>
        <source>stampede-cli, which serves the project&apos;s mock, was not found next to Stampede or on PATH; %1</source>
        <translation>在 Stampede 旁边或 PATH 中找不到提供项目模拟服务的 stampede-cli；%1</translation>
    </message>
    <message>
        <location filename="../models/projectmock.cpp" line="101"/>
        <source>the mock&apos;s rules could not be written to a temporary folder; %1</source>
        <translation>无法把模拟规则写入临时文件夹；%1</translation>
    </message>
    <message>
        <location filename="../models/projectmock.cpp" line="111"/>
        <source>the mock server stopped: %1</source>
        <translation>模拟服务器已停止：%1</translation>
    </message>
    <message>
        <location filename="../models/projectmock.cpp" line="119"/>
        <source>the mock server did not start within 5 s: %1</source>
        <translation>模拟服务器未在 5 秒内启动：%1</translation>
    </message>
</context>
<context>
    <name>ProjectTreeModel</name>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="287"/>
        <source>Runs (%1)</source>
        <translation>运行记录（%1）</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="290"/>
        <source>%1 %2 · %3 s · %4</source>
        <translation>%1 %2 · %3 秒 · %4</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="589"/>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="590"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="591"/>
        <source>aborted</source>
        <translation>已中止</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="592"/>
        <source>stopped when asked</source>
        <translation>应要求停止</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="593"/>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="594"/>
        <source>stopped by the breaker</source>
        <translation>已被熔断器停止</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="595"/>
        <source>stopped by a step</source>
        <translation>被步骤停止</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="596"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="603"/>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="603"/>
        <source>not passed</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="297"/>
        <source>The runs saved in this project; double-click one to open its report</source>
        <translation>此项目中保存的运行；双击打开其报告</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="299"/>
        <source>Run %1, started %2 (UTC)</source>
        <translation>运行 %1，开始于 %2（UTC）</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="330"/>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="406"/>
        <location filename="../models/projecttreemodel.cpp" line="455"/>
        <location filename="../models/projecttreemodel.cpp" line="466"/>
        <source>No project is open.</source>
        <translation>尚未打开任何项目。</translation>
    </message>
    <message>
        <location filename="../models/projecttreemodel.cpp" line="409"/>
        <source>The item is gone.</source>
        <translation>该项目已不存在。</translation>
    </message>
    <message>
        <location filename="../models/projecttreecommands.h" line="65"/>
        <source>Add &quot;%1&quot;</source>
        <translation>添加“%1”</translation>
    </message>
    <message>
        <location filename="../models/projecttreecommands.h" line="101"/>
        <source>Duplicate &quot;%1&quot;</source>
        <translation>复制“%1”</translation>
    </message>
    <message>
        <location filename="../models/projecttreecommands.h" line="142"/>
        <source>Delete &quot;%1&quot;</source>
        <translation>删除“%1”</translation>
    </message>
    <message>
        <location filename="../models/projecttreecommands.h" line="181"/>
        <source>Rename &quot;%1&quot; to &quot;%2&quot;</source>
        <translation>将“%1”重命名为“%2”</translation>
    </message>
    <message>
        <location filename="../models/projecttreecommands.h" line="203"/>
        <source>Edit &quot;%1&quot;</source>
        <translation>编辑“%1”</translation>
    </message>
    <message>
        <location filename="../models/projecttreecommands.h" line="236"/>
        <source>Move &quot;%1&quot;</source>
        <translation>移动“%1”</translation>
    </message>
    <message numerus="yes">
        <location filename="../models/projecttreemodel.cpp" line="571"/>
        <source>Move %n item(s)</source>
        <translation>
            <numerusform>移动 %n 项</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../widgets/enginesdialog.cpp" line="23"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="124"/>
        <source>cannot read the token file %1: %2</source>
        <translation>无法读取令牌文件 %1：%2</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="129"/>
        <source>the token file %1 is empty</source>
        <translation>令牌文件 %1 为空</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="141"/>
        <source>&quot;%1&quot;: give the list&apos;s path after file:</source>
        <translation>“%1”：请在 file: 之后给出列表的路径</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="150"/>
        <source>&quot;%1&quot; is not host:port (a port from 1 to 65535)</source>
        <translation>“%1”不是 host:port（端口为 1 到 65535）</translation>
    </message>
    <message>
        <location filename="../models/enginesettings.cpp" line="242"/>
        <source>ready: %1</source>
        <translation>就绪：%1</translation>
    </message>
    <message>
        <location filename="../widgets/capacitydialog.cpp" line="31"/>
        <source> /s</source>
        <translation> /秒</translation>
    </message>
    <message>
        <location filename="../models/collectionrun.cpp" line="24"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../models/collectionrun.cpp" line="28"/>
        <source>%1 is larger than 256 MiB.</source>
        <translation>%1 大于 256 MiB。</translation>
    </message>
    <message>
        <location filename="../models/collectionrun.cpp" line="81"/>
        <source>The collection cannot be made into a run.</source>
        <translation>无法把该集合转换为一次运行。</translation>
    </message>
</context>
<context>
    <name>RecentProjects</name>
    <message>
        <location filename="../models/recentprojects.cpp" line="40"/>
        <source>the file is gone</source>
        <translation>文件已不存在</translation>
    </message>
    <message>
        <location filename="../models/recentprojects.cpp" line="44"/>
        <source>not readable as a project</source>
        <translation>无法作为项目读取</translation>
    </message>
    <message>
        <location filename="../models/recentprojects.cpp" line="46"/>
        <source>no run yet</source>
        <translation>尚未运行</translation>
    </message>
    <message>
        <location filename="../models/recentprojects.cpp" line="50"/>
        <source>last run: %1, %2, %3</source>
        <translation>最近一次运行：%1，%2，%3</translation>
    </message>
</context>
<context>
    <name>ReplayForm</name>
    <message>
        <location filename="../widgets/replayform.cpp" line="21"/>
        <source>The server the recorded requests go to: http(s)://host:port. Each request keeps its recorded path, headers and body.</source>
        <translation>录制的请求发往的服务器：http(s)://主机:端口。每个请求保留录制时的路径、请求头和请求体。</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="29"/>
        <source>2 replays twice as fast: the recording&apos;s time is compressed, its requests per second doubled</source>
        <translation>2 表示以两倍速度回放：录制的时间被压缩，每秒请求数翻倍</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="35"/>
        <source>Each request is sent this many times; copies after the first take the offsets so that they do not collide</source>
        <translation>每个请求发送这么多次；第一次之后的副本套用偏移，避免相互冲突</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="40"/>
        <source>How a copy is told apart, separated by commas: query:NAME+N adds N × the copy&apos;s number to a query parameter (json:KEY+N, header:NAME+N likewise); FIELD:NAME~SUFFIX appends SUFFIX, where ${copy} is the copy&apos;s number</source>
        <translation>如何区分副本，用逗号分隔：query:NAME+N 给查询参数加上 N × 副本序号（json:KEY+N、header:NAME+N 同理）；FIELD:NAME~SUFFIX 追加 SUFFIX，其中 ${copy} 为副本序号</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="44"/>
        <source>Start over at the end, until the scenario&apos;s duration</source>
        <translation>结束后从头再来，直到场景的时长</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="54"/>
        <source>every path, e.g. ^/api/</source>
        <translation>所有路径，例如 ^/api/</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="55"/>
        <source>Only requests whose path (before &apos;?&apos;) this regular expression (PCRE2) matches</source>
        <translation>只发送路径（&apos;?&apos; 之前）匹配此正则表达式（PCRE2）的请求</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="57"/>
        <source>none, e.g. ^/static/</source>
        <translation>无，例如 ^/static/</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="57"/>
        <source>No request whose path this regular expression matches</source>
        <translation>不发送路径匹配此正则表达式的请求</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="58"/>
        <source>every method, e.g. GET, POST</source>
        <translation>所有方法，例如 GET, POST</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="58"/>
        <source>Only these methods, by commas</source>
        <translation>只发送这些方法，以逗号分隔</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="59"/>
        <source>every status, e.g. 2xx, 404, 500-599</source>
        <translation>所有状态，例如 2xx, 404, 500-599</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="60"/>
        <source>Only requests whose recorded answer had one of these statuses, by commas</source>
        <translation>只发送录制时响应为这些状态之一的请求，以逗号分隔</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="66"/>
        <source>This share of the requests selected, the same ones every run</source>
        <translation>所选请求中的这一比例，每次运行相同</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="71"/>
        <source>One header per line, Name: value, set on every request (replacing a recorded one)</source>
        <translation>每行一个请求头，Name: value，设置到每个请求上（替换录制的同名头）</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="72"/>
        <source>none, e.g. cookie, authorization</source>
        <translation>无，例如 cookie, authorization</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="73"/>
        <source>Headers taken off every request, by commas</source>
        <translation>从每个请求中移除的请求头，以逗号分隔</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="74"/>
        <source>as recorded</source>
        <translation>按录制</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="74"/>
        <source>The Host header sent instead of the recorded one</source>
        <translation>代替录制值发送的 Host 头</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="75"/>
        <source>New trace ids (with trace context on)</source>
        <translation>新的追踪 ID（开启追踪上下文时）</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="77"/>
        <source>Off: a recorded traceparent&apos;s trace id is kept (copies get one derived from it). On: every request gets a new one.</source>
        <translation>关闭：保留录制的 traceparent 中的追踪 ID（副本使用由其派生的 ID）。开启：每个请求使用新的追踪 ID。</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="82"/>
        <source>Traffic set:</source>
        <translation>流量集：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="83"/>
        <source>Target:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="84"/>
        <source>Speed:</source>
        <translation>速度：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="85"/>
        <source>Amplify:</source>
        <translation>放大：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="86"/>
        <source>Offsets:</source>
        <translation>偏移：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="88"/>
        <source>Only paths:</source>
        <translation>仅路径：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="89"/>
        <source>Not paths:</source>
        <translation>排除路径：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="90"/>
        <source>Methods:</source>
        <translation>方法：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="91"/>
        <source>Recorded statuses:</source>
        <translation>录制状态：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="92"/>
        <source>Sample:</source>
        <translation>抽样：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="93"/>
        <source>Set headers:</source>
        <translation>设置请求头：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="94"/>
        <source>Remove headers:</source>
        <translation>移除请求头：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="95"/>
        <source>Host:</source>
        <translation>Host：</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="223"/>
        <source>Offsets: %1</source>
        <translation>偏移：%1</translation>
    </message>
    <message>
        <location filename="../widgets/replayform.cpp" line="228"/>
        <source>Set headers: line %1 is not &quot;Name: value&quot;</source>
        <translation>设置请求头：第 %1 行不是“Name: value”</translation>
    </message>
</context>
<context>
    <name>ReplaySettings</name>
    <message>
        <location filename="../models/replaysettings.cpp" line="62"/>
        <source>replay</source>
        <translation>回放</translation>
    </message>
    <message>
        <location filename="../models/replaysettings.cpp" line="65"/>
        <source>Replay of %1</source>
        <translation>%1 的回放</translation>
    </message>
</context>
<context>
    <name>ReportHtml</name>
    <message>
        <location filename="../models/reportwords.cpp" line="10"/>
        <source>Capacity</source>
        <translation>容量</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="11"/>
        <source>Checks</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="12"/>
        <source>Connections and users</source>
        <translation>连接与用户</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="13"/>
        <source>Dropped</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="14"/>
        <source>Error rate against the offered rate</source>
        <translation>错误率与提供速率的关系</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="15"/>
        <source>Error samples</source>
        <translation>错误样本</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="16"/>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="17"/>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="18"/>
        <source>FAIL</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="19"/>
        <source>Late</source>
        <translation>迟到</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="20"/>
        <source>Latency distribution</source>
        <translation>延迟分布</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="21"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="22"/>
        <source>No failed request was sampled.</source>
        <translation>没有采样到失败的请求。</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="23"/>
        <source>Not even the start rate met every SLO</source>
        <translation>连起始速率也未满足全部 SLO</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="24"/>
        <source>Not judged:</source>
        <translation>未判定：</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="25"/>
        <source>PASS</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="26"/>
        <source>Percentiles over time</source>
        <translation>百分位随时间变化</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="27"/>
        <source>Rate/s</source>
        <translation>速率/秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="28"/>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="29"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="30"/>
        <source>Scenario as it ran</source>
        <translation>运行时的场景</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="31"/>
        <source>Server</source>
        <translation>服务端</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="32"/>
        <source>Stampede report</source>
        <translation>Stampede 报告</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="33"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="34"/>
        <source>Summary per step</source>
        <translation>各步骤汇总</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="35"/>
        <source>Thresholds</source>
        <translation>阈值</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="36"/>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="37"/>
        <source>a sample</source>
        <translation>一个样本</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="38"/>
        <source>achieved/s</source>
        <translation>实际/秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="39"/>
        <source>active users</source>
        <translation>活跃用户</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="40"/>
        <source>agent</source>
        <translation>代理</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="41"/>
        <source>at s</source>
        <translation>时刻 秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="42"/>
        <source>broke</source>
        <translation>突破</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="43"/>
        <source>check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="44"/>
        <source>completed/s</source>
        <translation>完成/秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="45"/>
        <source>count</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="46"/>
        <source>detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="47"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="48"/>
        <source>errors %</source>
        <translation>错误 %</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="49"/>
        <source>errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="50"/>
        <source>errors/s</source>
        <translation>错误/秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="51"/>
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="52"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="53"/>
        <source>frustrated</source>
        <translation>失望</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="54"/>
        <source>group</source>
        <translation>事务组</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="55"/>
        <source>iterations/s met every SLO</source>
        <translation>迭代/秒满足全部 SLO</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="56"/>
        <source>level</source>
        <translation>级别</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="57"/>
        <source>max ms</source>
        <translation>最大 毫秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="58"/>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="59"/>
        <source>measured</source>
        <translation>测得</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="60"/>
        <source>messages/s</source>
        <translation>消息/秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="61"/>
        <source>met every SLO</source>
        <translation>满足全部 SLO</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="62"/>
        <source>offered rate /s</source>
        <translation>提供速率 /秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="63"/>
        <source>offered/s</source>
        <translation>提供/秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="64"/>
        <source>open connections</source>
        <translation>打开的连接</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="65"/>
        <source>p99 against the offered rate</source>
        <translation>p99 与提供速率的关系</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="66"/>
        <source>p99 against throughput (a dot a second)</source>
        <translation>p99 与吞吐量的关系（每秒一个点）</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="67"/>
        <source>pass rate</source>
        <translation>通过率</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="68"/>
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="69"/>
        <source>per second</source>
        <translation>每秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="70"/>
        <source>requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="71"/>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="72"/>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="73"/>
        <source>satisfied</source>
        <translation>满意</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="74"/>
        <source>scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="75"/>
        <source>second</source>
        <translation>第几秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="76"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="77"/>
        <source>started</source>
        <translation>开始于</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="78"/>
        <source>threshold</source>
        <translation>阈值</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="79"/>
        <source>tolerating</source>
        <translation>可容忍</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="80"/>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="81"/>
        <source>value</source>
        <translation>数值</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="82"/>
        <source>verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="83"/>
        <source>why it failed (the first time)</source>
        <translation>失败原因（首次）</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="84"/>
        <source>Group</source>
        <translation>事务组</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="85"/>
        <source>All steps</source>
        <translation>全部步骤</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="86"/>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <location filename="../models/reportwords.cpp" line="95"/>
        <source>en</source>
        <extracomment>the language of the exported HTML page (its lang attribute): zh-CN in Chinese</extracomment>
        <translation>zh-CN</translation>
    </message>
</context>
<context>
    <name>ReportModel</name>
    <message>
        <location filename="../models/reportmodel.cpp" line="41"/>
        <source>The file holds no run.</source>
        <translation>该文件中没有运行记录。</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="63"/>
        <source>%1 · run %2 · %3 · started %4 · %5 s</source>
        <translation>%1 · 运行 %2 · %3 · 开始于 %4 · %5 秒</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="76"/>
        <source>all steps</source>
        <translation>所有步骤</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="240"/>
        <source>Capacity: %1/s met every SLO</source>
        <translation>容量：%1/秒 满足所有 SLO</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="241"/>
        <source>Capacity: not even the start rate met every SLO</source>
        <translation>容量：连起始速率都未满足所有 SLO</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="243"/>
        <source>; %1/s broke %2</source>
        <translation>；%1/秒 突破了 %2</translation>
    </message>
    <message numerus="yes">
        <location filename="../models/reportmodel.cpp" line="244"/>
        <source> (%n level(s))</source>
        <translation>
            <numerusform>（%n 个级别）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="266"/>
        <source>%1 · %2 · status %3 · second %4</source>
        <translation>%1 · %2 · 状态码 %3 · 第 %4 秒</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="267"/>
        <source>%1 · %2 · second %3</source>
        <translation>%1 · %2 · 第 %3 秒</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="275"/>
        <source>trace id %1</source>
        <translation>追踪 ID %1</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="287"/>
        <source>%1: %2 passed, %3 failed (%4)</source>
        <translation>%1：%2 通过，%3 失败（%4）</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="309"/>
        <source>%1 %2 (measured %3)</source>
        <translation>%1 %2（实测 %3）</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="310"/>
        <source>PASS</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="310"/>
        <source>FAIL</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="431"/>
        <source>A group (transaction): per iteration, from its first step&apos;s start to its last step&apos;s end</source>
        <translation>事务组：每次迭代从第一个步骤开始到最后一个步骤结束的时间</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="432"/>
        <source>A scenario of the plan: its steps together</source>
        <translation>计划中的一个场景：其所有步骤合计</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="446"/>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="80"/>
        <location filename="../models/reportmodel.cpp" line="447"/>
        <source>group %1</source>
        <translation>事务组 %1</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="82"/>
        <location filename="../models/reportmodel.cpp" line="448"/>
        <source>scenario %1</source>
        <translation>场景 %1</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="476"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="476"/>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="476"/>
        <source>Rate/s</source>
        <translation>速率/秒</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="477"/>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="477"/>
        <source>p50 ms</source>
        <translation>p50 毫秒</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="477"/>
        <source>p90 ms</source>
        <translation>p90 毫秒</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="478"/>
        <source>p99 ms</source>
        <translation>p99 毫秒</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="478"/>
        <source>p99.9 ms</source>
        <translation>p99.9 毫秒</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="478"/>
        <source>max ms</source>
        <translation>最大 毫秒</translation>
    </message>
    <message>
        <location filename="../models/reportmodel.cpp" line="479"/>
        <source>Late/dropped</source>
        <translation>延迟/丢弃</translation>
    </message>
</context>
<context>
    <name>ReportView</name>
    <message>
        <location filename="../widgets/reportview.cpp" line="226"/>
        <source>PASSED</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="226"/>
        <source>FAILED</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="249"/>
        <source>Export %1…</source>
        <translation>导出 %1…</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="254"/>
        <location filename="../widgets/reportview.cpp" line="259"/>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="304"/>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="129"/>
        <location filename="../widgets/reportview.cpp" line="304"/>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="297"/>
        <source>completed/s</source>
        <translation>完成/秒</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="235"/>
        <source>Not judged: %1</source>
        <translation>未判定：%1</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="78"/>
        <source>Latency distribution</source>
        <translation>延迟分布</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="79"/>
        <location filename="../widgets/reportview.cpp" line="94"/>
        <source>requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="106"/>
        <source>How many answers took each span of time, over the whole run (exact, from the saved histograms)</source>
        <translation>整个运行中每个耗时区间的应答数（精确，来自保存的直方图）</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="115"/>
        <source>p99 against throughput</source>
        <translation>p99 与吞吐量的关系</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="117"/>
        <source>a second</source>
        <translation>一秒</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="132"/>
        <source>p99 ms</source>
        <translation>p99 毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="150"/>
        <source>APDEX (T %1 ms): no answer was timed</source>
        <translation>APDEX（T %1 毫秒）：没有计时的应答</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="151"/>
        <source>APDEX %1 (T %2 ms): %3 satisfied · %4 tolerating · %5 frustrated</source>
        <translation>APDEX %1（T %2 毫秒）：满意 %3 · 可容忍 %4 · 失望 %5</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="173"/>
        <source>Satisfied: answered within T; tolerating: within 4 T; frustrated: slower, or failed without an answer. APDEX = (satisfied + tolerating / 2) / all answers</source>
        <translation>满意：T 之内应答；可容忍：4 T 之内；失望：更慢，或失败而无应答。APDEX =（满意 + 可容忍 / 2）/ 全部应答</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="179"/>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="181"/>
        <source>APDEX&apos;s target time T for the whole run and every step without its own; the exports use it too</source>
        <translation>APDEX 的目标时间 T：用于整个运行及没有自己 T 的每个步骤；导出也使用它</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="183"/>
        <source>APDEX&apos;s target time T for this one; the exports use it too</source>
        <translation>此项的 APDEX 目标时间 T；导出也使用它</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="189"/>
        <source>APDEX T:</source>
        <translation>APDEX T：</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="193"/>
        <source>Top errors:</source>
        <translation>主要错误：</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="196"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="196"/>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="196"/>
        <source>A sample</source>
        <translation>一个样本</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="298"/>
        <source>errors/s</source>
        <translation>错误/秒</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="302"/>
        <source>messages/s</source>
        <translation>消息/秒</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="304"/>
        <source>per second</source>
        <translation>每秒</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="305"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="305"/>
        <location filename="../widgets/reportview.cpp" line="446"/>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="311"/>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="315"/>
        <source>Connections and users</source>
        <translation>连接与用户</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="315"/>
        <source>count</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="316"/>
        <source>open connections</source>
        <translation>打开的连接</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="316"/>
        <source>active users</source>
        <translation>活跃用户</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="323"/>
        <source>Server</source>
        <translation>服务端</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="323"/>
        <source>value</source>
        <translation>数值</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="329"/>
        <source>Show all engines together or one engine in the charts</source>
        <translation>在图表中显示全部引擎的合计或单个引擎</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="330"/>
        <source>all engines</source>
        <translation>全部引擎</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="341"/>
        <source>Show the whole run, one step or one group (a transaction) in the throughput and latency charts: its requests and percentiles second by second</source>
        <translation>在吞吐量和延迟图表中显示整个运行、一个步骤或一个分组（事务）：逐秒显示其请求数和百分位</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="362"/>
        <source>Thresholds:</source>
        <translation>阈值：</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="362"/>
        <source>Thresholds and checks:</source>
        <translation>阈值与检查：</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="365"/>
        <source>Events:</source>
        <translation>事件：</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="368"/>
        <source>Scenario as it ran:</source>
        <translation>运行时的场景：</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="375"/>
        <source>No failed request was sampled.</source>
        <translation>没有采样到失败的请求。</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="385"/>
        <source>Error samples:</source>
        <translation>错误样本：</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="446"/>
        <source>p99 against the offered rate</source>
        <translation>p99 与提供速率的关系</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="447"/>
        <source>Error rate against the offered rate</source>
        <translation>错误率与提供速率的关系</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="447"/>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="447"/>
        <source>errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="451"/>
        <source>offered rate /s</source>
        <translation>提供速率 /秒</translation>
    </message>
    <message>
        <location filename="../widgets/reportview.cpp" line="452"/>
        <source>Each level of the search: its offered rate, and what it measured</source>
        <translation>搜索的每一级：其提供速率及测得的结果</translation>
    </message>
</context>
<context>
    <name>RequestEditor</name>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="59"/>
        <source>HTTP method</source>
        <translation>HTTP 方法</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="62"/>
        <source>https://host/path?query — ${variables} allowed; paste a curl command to import it</source>
        <translation>https://主机/路径?查询 — 可使用 ${变量}；粘贴 curl 命令即可导入</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="63"/>
        <source>The request URL. ${name} takes its value from the current environment when sent.
Pasting a curl command here imports its method, URL, headers and body.</source>
        <translation>请求 URL。发送时 ${名称} 取自当前环境。
在此粘贴 curl 命令可导入其方法、URL、请求头和请求体。</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="65"/>
        <location filename="../widgets/requesteditor.cpp" line="676"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="66"/>
        <source>Send the request once (Ctrl+Enter)</source>
        <translation>发送一次该请求 (Ctrl+Enter)</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="79"/>
        <source>Header</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="79"/>
        <location filename="../widgets/requesteditor.cpp" line="82"/>
        <location filename="../widgets/requesteditor.cpp" line="95"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="82"/>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="84"/>
        <source>The URL&apos;s query parameters, kept in step with the URL</source>
        <translation>URL 的查询参数，与 URL 保持同步</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="87"/>
        <source>Request body (raw text or JSON; ${variables} allowed)</source>
        <translation>请求体（原始文本或 JSON；可使用 ${变量}）</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="90"/>
        <source>Raw</source>
        <translation>原始文本</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="90"/>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="90"/>
        <source>Form (urlencoded)</source>
        <translation>表单 (urlencoded)</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="90"/>
        <source>Form (multipart)</source>
        <translation>表单 (multipart)</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="90"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="91"/>
        <source>JSON is checked as you type; the form modes encode the table below and set Content-Type; File sends a file&apos;s bytes as they are</source>
        <translation>输入时即检查 JSON；表单模式会编码下表并设置 Content-Type；“文件”模式按原样发送文件的字节</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="93"/>
        <source>Pretty-print</source>
        <translation>格式化</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="95"/>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="693"/>
        <source>The file whose bytes are the body</source>
        <translation>以其字节作为请求体的文件</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="694"/>
        <source>Relative to the project&apos;s folder, or absolute. Read when the request is sent or the run starts and sent as it is (nothing in it expanded), with a Content-Type from its extension unless the headers have one</source>
        <translation>相对于项目所在文件夹，或绝对路径。在发送请求或运行开始时读取并按原样发送（其中的内容不展开），除非请求头已指定，否则按扩展名设置 Content-Type</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="697"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="705"/>
        <source>Body file</source>
        <translation>请求体文件</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="113"/>
        <source>No auth</source>
        <translation>无认证</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="113"/>
        <source>Basic</source>
        <translation>Basic 认证</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="113"/>
        <source>Bearer token</source>
        <translation>Bearer 令牌</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="113"/>
        <location filename="../widgets/requesteditor.cpp" line="480"/>
        <source>OAuth 1.0</source>
        <translation>OAuth 1.0</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="113"/>
        <source>Digest</source>
        <translation>Digest 摘要认证</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="119"/>
        <source>token, or ${variable}</source>
        <translation>令牌，或 ${变量}</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="123"/>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="124"/>
        <source>User:</source>
        <translation>用户名：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="125"/>
        <source>Password:</source>
        <translation>密码：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="126"/>
        <source>Token:</source>
        <translation>令牌：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="138"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="139"/>
        <source>Give up when the whole response has not arrived in this time</source>
        <translation>在此时间内未收到完整响应则放弃</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="140"/>
        <source>Timeout:</source>
        <translation>超时：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="143"/>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="144"/>
        <source>Auto: HTTP/1.1 for http://, HTTP/2 over TLS for https://.
HTTP/2 with http:// is h2c with prior knowledge.</source>
        <translation>自动：http:// 用 HTTP/1.1，https:// 用 TLS 上的 HTTP/2。
http:// 选 HTTP/2 即为预知方式的 h2c。</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="146"/>
        <source>HTTP version:</source>
        <translation>HTTP 版本：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="148"/>
        <source>Verify the server&apos;s certificate (https)</source>
        <translation>校验服务器证书（https）</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="151"/>
        <source>Against the system&apos;s CAs, for the URL&apos;s host. Turn off for a server
with a self-signed or internal certificate.</source>
        <translation>按系统 CA 校验 URL 主机的证书。服务器使用自签名
或内部证书时请关闭。</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="158"/>
        <source>Params</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="159"/>
        <source>Headers</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="160"/>
        <source>Body</source>
        <translation>请求体</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="165"/>
        <source>Auth &amp;&amp; options</source>
        <translation>认证与选项</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="210"/>
        <source>Response body</source>
        <translation>响应体</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="240"/>
        <source>An HTTP request, a gRPC unary call described by .proto files, a WebSocket conversation, or a Server-Sent Events stream</source>
        <translation>HTTP 请求、由 .proto 文件描述的 gRPC 一元调用、WebSocket 会话，或 Server-Sent Events 事件流</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="243"/>
        <source>Protocol:</source>
        <translation>协议：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="277"/>
        <source>Not imported: %1</source>
        <translation>未能导入：%1</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="342"/>
        <source>valid JSON</source>
        <translation>JSON 有效</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="345"/>
        <source>not valid JSON at offset %1: %2</source>
        <translation>JSON 无效，位置 %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="471"/>
        <source>This request has Postman&apos;s &quot;%1&quot; auth helper, which Stampede does not make: it is kept as it came (and exported back), and the request is sent without it.</source>
        <translation>此请求带有 Postman 的“%1”认证助手，Stampede 不会生成它：它按原样保留（导出时写回），请求发送时不带它。</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="490"/>
        <source>Consumer key:</source>
        <translation>Consumer key：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="491"/>
        <source>Consumer secret:</source>
        <translation>Consumer secret：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="492"/>
        <source>Access token:</source>
        <translation>Access token：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="493"/>
        <source>Token secret:</source>
        <translation>Token secret：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="494"/>
        <source>Realm:</source>
        <translation>Realm：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="494"/>
        <source>Sent in the Authorization header, not signed</source>
        <translation>放在 Authorization 头中发送，不参与签名</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="495"/>
        <source>Timestamp:</source>
        <translation>时间戳：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="495"/>
        <source>Empty: the time of each send</source>
        <translation>留空：每次发送时的时间</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="496"/>
        <source>Nonce:</source>
        <translation>Nonce：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="496"/>
        <source>Empty: a fresh random one for each send</source>
        <translation>留空：每次发送新生成一个随机值</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="497"/>
        <source>Version:</source>
        <translation>版本：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="497"/>
        <source>Empty: 1.0</source>
        <translation>留空：1.0</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="498"/>
        <source>Callback URL:</source>
        <translation>回调 URL：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="499"/>
        <source>Verifier:</source>
        <translation>Verifier：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="504"/>
        <source>value, or ${variable}</source>
        <translation>值，或 ${variable}</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="516"/>
        <source>Signature method:</source>
        <translation>签名方法：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="519"/>
        <source>Authorization header</source>
        <translation>Authorization 头</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="519"/>
        <source>URL query</source>
        <translation>URL 查询参数</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="520"/>
        <source>Where the oauth_ parameters and the signature go</source>
        <translation>oauth_ 参数和签名放在哪里</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="521"/>
        <source>Add to:</source>
        <translation>添加到：</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="525"/>
        <source>Sign empty parameters too</source>
        <translation>空参数也参与签名</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="628"/>
        <source>Not defined in the environment, the data sets or the scenarios: ${%1}</source>
        <translation>环境、数据集和场景都没有定义：${%1}</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="633"/>
        <source>The request URL. ${name} takes its value from the current environment when sent.</source>
        <translation>请求 URL。发送时 ${名称} 取自当前环境。</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="650"/>
        <source>Unknown variables: %1 (define them in the current environment)</source>
        <translation>未知变量：%1（请在当前环境中定义）</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="667"/>
        <source>Imported; not taken: %1</source>
        <translation>已导入；未采用：%1</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="677"/>
        <source>This request uses names that nothing defines: %1.</source>
        <translation>此请求用到了没有任何地方定义的名称：%1。</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="680"/>
        <source>Define them in the current environment, a data set or a scenario; sent now, the server gets the text ${…} as it is.</source>
        <translation>请在当前环境、数据集或场景中定义它们；现在发送的话，服务器收到的是原样的 ${…} 文本。</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="682"/>
        <source>Send as it is</source>
        <translation>照原样发送</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="737"/>
        <source>Sending…</source>
        <translation>正在发送…</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="768"/>
        <location filename="../widgets/requesteditor.cpp" line="814"/>
        <source>Checks</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="770"/>
        <source>Extract</source>
        <translation>提取</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="814"/>
        <source>Checks (%1/%2)</source>
        <translation>检查（%1/%2）</translation>
    </message>
    <message>
        <location filename="../widgets/requesteditor.cpp" line="830"/>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
</context>
<context>
    <name>RequestItem</name>
    <message>
        <location filename="../models/requestitem.cpp" line="497"/>
        <source>%1 in the URL</source>
        <translation>URL 中的 %1</translation>
    </message>
    <message>
        <location filename="../models/requestitem.cpp" line="498"/>
        <source>%1 in the headers</source>
        <translation>请求头中的 %1</translation>
    </message>
    <message>
        <location filename="../models/requestitem.cpp" line="499"/>
        <source>%1 in the body</source>
        <translation>请求体中的 %1</translation>
    </message>
    <message>
        <location filename="../models/requestitem.cpp" line="500"/>
        <source>%1 in the authorization</source>
        <translation>授权中的 %1</translation>
    </message>
    <message>
        <location filename="../models/requestitem.cpp" line="501"/>
        <source>%1 in the message</source>
        <translation>消息中的 %1</translation>
    </message>
    <message>
        <location filename="../models/requestitem.cpp" line="502"/>
        <source>%1 in the metadata</source>
        <translation>元数据中的 %1</translation>
    </message>
</context>
<context>
    <name>RequestSender</name>
    <message>
        <location filename="../models/requestsender.cpp" line="48"/>
        <source>%1 · %2 ms · %3 bytes</source>
        <translation>%1 · %2 毫秒 · %3 字节</translation>
    </message>
    <message>
        <location filename="../models/requestsender.cpp" line="84"/>
        <source>HTTP %1, no grpc-status · %2 ms</source>
        <translation>HTTP %1，无 grpc-status · %2 毫秒</translation>
    </message>
    <message>
        <location filename="../models/requestsender.cpp" line="89"/>
        <source>%1 (%2)%3 · %4 ms</source>
        <translation>%1（%2）%3 · %4 毫秒</translation>
    </message>
    <message>
        <location filename="../models/requestsender.cpp" line="96"/>
        <source> · %1 sent, %2 received</source>
        <translation> · 发送 %1 条，接收 %2 条</translation>
    </message>
    <message>
        <location filename="../models/requestsender.cpp" line="132"/>
        <source>101 Switching Protocols%1 · %2 sent, %3 received · %4 ms</source>
        <translation>101 Switching Protocols%1 · 已发送 %2 条，已接收 %3 条 · %4 ms</translation>
    </message>
    <message>
        <location filename="../models/requestsender.cpp" line="140"/>
        <source> · closed %1%2</source>
        <translation> · 已关闭 %1%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../models/requestsender.cpp" line="165"/>
        <source>%n event(s) · %1 ms</source>
        <translation>
            <numerusform>%n 个事件 · %1 ms</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../models/requestsender.cpp" line="204"/>
        <source>not sent: %1</source>
        <translation>未发送：%1</translation>
    </message>
</context>
<context>
    <name>ResponseView</name>
    <message>
        <location filename="../widgets/responseview.cpp" line="13"/>
        <source>No response yet. Press Send (Ctrl+Enter).</source>
        <translation>尚无响应。请按“发送”（Ctrl+Enter）。</translation>
    </message>
    <message>
        <location filename="../widgets/responseview.cpp" line="20"/>
        <source>Response headers</source>
        <translation>响应头</translation>
    </message>
    <message>
        <location filename="../widgets/responseview.cpp" line="20"/>
        <source>Header</source>
        <translation>头</translation>
    </message>
    <message>
        <location filename="../widgets/responseview.cpp" line="32"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>RunDashboard</name>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="58"/>
        <source>Starting the engines…</source>
        <translation>正在启动引擎…</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="64"/>
        <source>Show the whole run, one step, a group or one of a plan&apos;s scenarios in the charts</source>
        <translation>图表中显示整个运行、单个步骤、一个分组或计划中的某个场景</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="86"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="87"/>
        <source>Stop the run now: every engine goes idle</source>
        <translation>立即停止运行：所有引擎进入空闲</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="88"/>
        <location filename="../widgets/rundashboard.cpp" line="291"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="96"/>
        <source>Scale the planned rate or users from now on (1 is as planned)</source>
        <translation>从现在起按倍数调整计划速率或用户数（1 为按计划）</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="97"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="105"/>
        <source>Load:</source>
        <translation>负载：</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="117"/>
        <source>planned</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="122"/>
        <source>sent/s</source>
        <translation>发出/秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="124"/>
        <source>completed/s</source>
        <translation>完成/秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="143"/>
        <source>max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="196"/>
        <source>errors/s</source>
        <translation>错误/秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="171"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="65"/>
        <source>all steps</source>
        <translation>全部步骤</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="72"/>
        <source>Show all engines together or one engine in the charts</source>
        <translation>在图表中显示全部引擎的合计或单个引擎</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="73"/>
        <source>all engines</source>
        <translation>全部引擎</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="81"/>
        <source>The time the run has taken of the time it is planned to take</source>
        <translation>运行已用时间占计划时长的比例</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="89"/>
        <source>Hold the arrivals (open model) or rest the users (closed model); Resume continues. The run&apos;s clock keeps going while paused: it ends at its planned time, paused or not</source>
        <translation>暂停到达（开放模型）或让用户休息（封闭模型）；“继续”恢复。暂停期间运行的时钟照走：无论是否暂停，都在计划的时间结束</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="102"/>
        <source>Charts:</source>
        <translation>图表：</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="129"/>
        <source>messages/s</source>
        <translation>消息/秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="145"/>
        <source>open connections</source>
        <translation>打开的连接</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="147"/>
        <source>active users</source>
        <translation>活跃用户</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="171"/>
        <source>Rate/s</source>
        <translation>速率/秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="171"/>
        <source>p50 ms</source>
        <translation>p50 毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="171"/>
        <source>p99 ms</source>
        <translation>p99 毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="171"/>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="171"/>
        <source>Late/dropped</source>
        <translation>延迟/丢弃</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="178"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="178"/>
        <source>Passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="178"/>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="178"/>
        <source>Pass rate</source>
        <translation>通过率</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="183"/>
        <source>Each step&apos;s checks, judged on every answer since the run began; a failed check counts as an error of class &quot;check&quot;</source>
        <translation>各步骤的检查，自运行开始起对每个响应进行判定；检查失败计为 “check” 类错误</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="194"/>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="194"/>
        <location filename="../widgets/rundashboard.cpp" line="606"/>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="195"/>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="195"/>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="196"/>
        <source>Errors by class</source>
        <translation>按类别的错误</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="203"/>
        <source>Connections and users</source>
        <translation>连接与用户</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="203"/>
        <source>count</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="204"/>
        <source>Open connections, and users taking part (closed model) or iterations in flight (open model), at the end of each second</source>
        <translation>每秒结束时打开的连接数，以及参与的用户数（闭环模型）或进行中的迭代数（开环模型）</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="207"/>
        <source>Server</source>
        <translation>服务端</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="207"/>
        <source>value</source>
        <translation>数值</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="209"/>
        <source>The target&apos;s own metrics (the scenario&apos;s serverMetrics), as read each second</source>
        <translation>被测目标自身的指标（场景的 serverMetrics），每秒读取一次</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="234"/>
        <source>Events:</source>
        <translation>事件：</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="263"/>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="291"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="314"/>
        <source>load × %1</source>
        <translation>负载 × %1</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="455"/>
        <source>second %1 · %2 requests/s · p99 %3 · %4 errors · %5 connections open · %6 users</source>
        <translation>第 %1 秒 · %2 请求/秒 · p99 %3 · %4 个错误 · %5 个连接打开 · %6 个用户</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="475"/>
        <source> · generator CPU %1 %</source>
        <translation> · 压测机 CPU %1 %</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="476"/>
        <source>The load generators in second %1 (CPU as a share of the cores each may use):</source>
        <translation>第 %1 秒的压测机（CPU 为各自可用核心的占比）：</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="478"/>
        <source>%1: CPU %2 %, memory %3 MiB, event-loop lag %4 ms</source>
        <translation>%1：CPU %2 %，内存 %3 MiB，事件循环延迟 %4 ms</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="487"/>
        <source>engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="492"/>
        <source>Over 90 %: the generator, not the target, may be what limits this run.</source>
        <translation>超过 90 %：限制本次压测的可能是压测机，而不是目标。</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="507"/>
        <source>paused · %1 of %2 · the run still ends in %3, paused or not</source>
        <translation>已暂停 · %1 / %2 · 无论是否暂停，运行仍在 %3 后结束</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="509"/>
        <source>%1 of %2 · %3 left</source>
        <translation>%1 / %2 · 剩余 %3</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="518"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="520"/>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="521"/>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="551"/>
        <source>Mean rate/s</source>
        <translation>平均速率/秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="552"/>
        <source>The whole run&apos;s figures: its mean rate, percentiles over every answer, its errors</source>
        <translation>整个运行的数据：平均速率、基于全部响应的百分位数、错误数</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="554"/>
        <source>The whole run, %1: the table shows its totals</source>
        <translation>整个运行，%1：表中为全程合计</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="557"/>
        <source>ended after %1</source>
        <translation>已结束，历时 %1</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="702"/>
        <source>Run %1: %2 requests, p99 %3 ms · %4</source>
        <translation>运行 %1：%2 个请求，p99 %3 毫秒 · %4</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="711"/>
        <source>not judged: %1</source>
        <translation>未判定：%1</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="725"/>
        <source>threshold failed: %1</source>
        <translation>阈值未通过：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/rundashboard.cpp" line="294"/>
        <source>Run %1 on %n engine(s)</source>
        <translation>
            <numerusform>运行 %1，%n 个引擎</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="606"/>
        <source>per second</source>
        <translation>每秒</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="694"/>
        <source>The run could not be carried out: %1</source>
        <translation>运行无法进行：%1</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="719"/>
        <source>no thresholds</source>
        <translation>无阈值</translation>
    </message>
    <message>
        <location filename="../widgets/rundashboard.cpp" line="724"/>
        <source>thresholds passed</source>
        <translation>阈值通过</translation>
    </message>
</context>
<context>
    <name>RunSession</name>
    <message>
        <location filename="../models/runsession.cpp" line="92"/>
        <source>SLO %1</source>
        <translation>SLO %1</translation>
    </message>
    <message>
        <location filename="../models/runsession.cpp" line="98"/>
        <source>The highest rate must be at least the start rate, and at most 100000 times it.</source>
        <translation>最高速率必须不低于起始速率，且不超过其 100000 倍。</translation>
    </message>
    <message>
        <location filename="../models/runsession.cpp" line="100"/>
        <source>Give at least one SLO, e.g. p99 &lt; 50ms.</source>
        <translation>请至少给出一个 SLO，例如 p99 &lt; 50ms。</translation>
    </message>
    <message>
        <location filename="../models/runsession.cpp" line="109"/>
        <source>A run is already going on.</source>
        <translation>已有一个运行正在进行。</translation>
    </message>
    <message>
        <location filename="../models/runsession.cpp" line="174"/>
        <source>group %1</source>
        <translation>事务组 %1</translation>
    </message>
    <message>
        <location filename="../models/runsession.cpp" line="176"/>
        <source>scenario %1</source>
        <translation>场景 %1</translation>
    </message>
</context>
<context>
    <name>ScenarioEditor</name>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="124"/>
        <source>about %1 (sd %2)</source>
        <translation>约 %1（标准差 %2）</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="127"/>
        <source>%1 on average</source>
        <translation>平均 %1</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="130"/>
        <source>   then think %1</source>
        <translation>   然后思考 %1</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="150"/>
        <source>   checks: %1</source>
        <translation>   检查：%1</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="152"/>
        <source>   extracts %1</source>
        <translation>   提取 %1</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="161"/>
        <source>%1   replays %2 at × %3 to %4</source>
        <translation>%1   以 × %3 回放 %2 到 %4</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="337"/>
        <source>Each iteration runs these requests in order, on one connection</source>
        <translation>每次迭代在同一连接上按顺序执行这些请求</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="340"/>
        <source>Add request…</source>
        <translation>添加请求…</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="341"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="533"/>
        <source>A data-set variable takes its rows from the project&apos;s data set of the same name</source>
        <translation>数据集变量从项目中同名的数据集取行</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="542"/>
        <source>Add variable</source>
        <translation>添加变量</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="542"/>
        <source>Remove variable</source>
        <translation>移除变量</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="420"/>
        <source>Open model: a target rate (iterations/s)</source>
        <translation>开放模型：目标速率（迭代/秒）</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="421"/>
        <source>Closed model: virtual users</source>
        <translation>封闭模型：虚拟用户</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="422"/>
        <source>Open: iterations start on a schedule whatever the latency (stable QPS).
Closed: each user sends, waits for the answer, thinks, and repeats.</source>
        <translation>开放：无论延迟如何，按计划启动迭代（稳定 QPS）。
封闭：每个用户发送请求、等待响应、思考，然后重复。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="430"/>
        <source>default (50)</source>
        <translation>默认 (50)</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="431"/>
        <source>Open model: the connection pool. An arrival that finds every connection busy waits and is counted as late.</source>
        <translation>开放模型：连接池大小。到达时若所有连接都忙，则等待并计为“延迟发出”。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="435"/>
        <location filename="../widgets/scenarioeditor.cpp" line="439"/>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="436"/>
        <source>Closed model: the pause after each iteration</source>
        <translation>封闭模型：每次迭代后的停顿时间</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="440"/>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="441"/>
        <source>Closed model: each user starts an iteration at least this long after its previous one began (a steady pace per user, whatever the latency); 0: off</source>
        <translation>闭环模型：每个用户的下一次迭代至少在上一次迭代开始这么久之后才开始（无论延迟多少，每个用户保持稳定节奏）；0：关闭</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="444"/>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="447"/>
        <source>auto: HTTP/1.1 for http://, and for https:// what the server settles on by ALPN.
HTTP/2 with http:// is h2c with prior knowledge.</source>
        <translation>自动：http:// 使用 HTTP/1.1，https:// 使用服务器经 ALPN 协商的协议。
http:// 选择 HTTP/2 时为预知模式的 h2c。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="451"/>
        <source>HTTP/2: requests in flight on each connection</source>
        <translation>HTTP/2：每个连接上同时进行的请求数</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="452"/>
        <source>Verify servers&apos; certificates (https)</source>
        <translation>校验服务器证书（https）</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="455"/>
        <source>Off only for test servers with self-made certificates: a refused certificate counts as a tls error</source>
        <translation>仅对使用自签证书的测试服务器关闭：证书被拒绝时计为 tls 错误</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="459"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="460"/>
        <location filename="../widgets/scenarioeditor.cpp" line="700"/>
        <source>the stages&apos; total</source>
        <translation>各阶段时长之和</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="522"/>
        <source>Add stage</source>
        <translation>添加阶段</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="522"/>
        <source>Remove stage</source>
        <translation>移除阶段</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="507"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="515"/>
        <location filename="../widgets/scenarioeditor.cpp" line="1033"/>
        <source>Planned load</source>
        <translation>计划负载</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="553"/>
        <source>One per line, e.g.
p99 &lt; 200ms
error_rate &lt; 0.1%</source>
        <translation>每行一条，例如
p99 &lt; 200ms
error_rate &lt; 0.1%</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="388"/>
        <source>Send the stress tag</source>
        <translation>发送压测标记</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="389"/>
        <source>Every request carries the run&apos;s unique id, so services can route test traffic to shadow tables and tell test traffic apart</source>
        <translation>每个请求都带有本次运行的唯一标识，服务可据此将压测流量路由到影子表并区分压测流量</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="393"/>
        <source>Trace context (W3C traceparent)</source>
        <translation>追踪上下文（W3C traceparent）</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="395"/>
        <source>Every request carries a traceparent: one trace id per iteration of a virtual user, one span id per request, so a request can be followed through the services; a replay keeps a recorded trace id. Write baggage as the stress tag&apos;s header to carry the tag as OpenTelemetry baggage.</source>
        <translation>每个请求携带 traceparent：虚拟用户每次迭代一个追踪 ID，每个请求一个 span ID，以便在各服务中跟踪请求；回放保留录制的追踪 ID。将压测标记的请求头写为 baggage，即可把标记作为 OpenTelemetry baggage 传递。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="570"/>
        <source>Run on the local pool</source>
        <translation>在本地引擎池运行</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="575"/>
        <source>Find capacity…</source>
        <translation>寻找容量…</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="577"/>
        <source>Raise this scenario&apos;s rate level by level until an SLO breaks: the highest rate the target takes</source>
        <translation>逐级提高此场景的速率直到突破 SLO：得出目标能承受的最高速率</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="579"/>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="580"/>
        <source>Export bundle…</source>
        <translation>导出场景包…</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="537"/>
        <source>Where each name&apos;s value comes from in a run with the current environment, lowest first: the environment, the scenario&apos;s variables, its data sets and generators, the values its steps extract (an environment value is the default until extracted)</source>
        <translation>在当前环境下运行时每个名称的取值来源，优先级由低到高：环境、场景变量、数据集与生成器、步骤提取的值（提取之前以环境中的值为默认值）</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="607"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="298"/>
        <source>none (e.g. daily 02:00, weekly mon 03:30, every 6h)</source>
        <translation>无（例如 daily 02:00、weekly mon 03:30、every 6h）</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="299"/>
        <source>When to run it unattended: stampede-cli schedule install PROJECT writes systemd user timers that run it headless and keep the runs in the project (Runs → Schedules).</source>
        <translation>无人值守运行的时间：stampede-cli schedule install PROJECT 会写入 systemd 用户定时器，无界面运行并把结果保存在项目中（运行 → 定时任务）。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="302"/>
        <source>Schedule:</source>
        <translation>计划：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="403"/>
        <source>Steps:</source>
        <translation>步骤：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="405"/>
        <source>Replay:</source>
        <translation>回放：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="463"/>
        <source>Load model:</source>
        <translation>负载模型：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="465"/>
        <source>Connections:</source>
        <translation>连接数：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="466"/>
        <source>Think time:</source>
        <translation>思考时间：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="467"/>
        <source>Pacing:</source>
        <translation>节奏（Pacing）：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="470"/>
        <source>Streams per connection:</source>
        <translation>每连接流数：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="474"/>
        <source>HTTP version:</source>
        <translation>HTTP 版本：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="475"/>
        <source>Duration:</source>
        <translation>持续时间：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="477"/>
        <source>Stages:</source>
        <translation>阶段：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="561"/>
        <source>Thresholds:</source>
        <translation>阈值：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="411"/>
        <source>Stress tag:</source>
        <translation>压测标记：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="573"/>
        <source>Start this scenario on local engines (fitted to the CPUs this machine lets it use) and watch it live</source>
        <translation>在本机引擎上启动此场景（按本机允许使用的 CPU 数量）并实时观察</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="404"/>
        <source>Chosen step:</source>
        <translation>所选步骤：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="562"/>
        <source>Steps&apos; checks:</source>
        <translation>各步骤的检查：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="306"/>
        <location filename="../widgets/scenarioeditor.cpp" line="862"/>
        <location filename="../widgets/scenarioeditor.cpp" line="864"/>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="307"/>
        <location filename="../widgets/scenarioeditor.cpp" line="862"/>
        <source>Load</source>
        <translation>负载</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="308"/>
        <location filename="../widgets/scenarioeditor.cpp" line="862"/>
        <location filename="../widgets/scenarioeditor.cpp" line="865"/>
        <source>Variables</source>
        <translation>变量</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="309"/>
        <location filename="../widgets/scenarioeditor.cpp" line="862"/>
        <location filename="../widgets/scenarioeditor.cpp" line="865"/>
        <source>Checks &amp;&amp; thresholds</source>
        <translation>检查与阈值</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="310"/>
        <location filename="../widgets/scenarioeditor.cpp" line="862"/>
        <location filename="../widgets/scenarioeditor.cpp" line="865"/>
        <source>Breaker</source>
        <translation>熔断</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="311"/>
        <location filename="../widgets/scenarioeditor.cpp" line="865"/>
        <source>Schedule</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="370"/>
        <location filename="../widgets/scenarioeditor.cpp" line="375"/>
        <source>Add request</source>
        <translation>添加请求</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="370"/>
        <source>The project has no requests yet.</source>
        <translation>项目中还没有请求。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="375"/>
        <source>Request:</source>
        <translation>请求：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="584"/>
        <location filename="../widgets/scenarioeditor.cpp" line="587"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="683"/>
        <source>Fix the scenario first:</source>
        <translation>请先修正场景：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="588"/>
        <source>This scenario will fail requests:</source>
        <translation>此场景中的请求将会失败：</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/scenarioeditor.cpp" line="180"/>
        <source>   sends %n message(s)</source>
        <translation>
            <numerusform>   发送 %n 条消息</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="250"/>
        <source>%1 — %2 %3</source>
        <translation>%1 — %2 %3</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="256"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="316"/>
        <source>Webhooks told how each run goes: at its start, at each breaker action, when thresholds fail and at its end (verdict, figures, where the run is kept).</source>
        <translation>每次运行都会通知这些 Webhook：开始时、每次熔断动作时、阈值未通过时以及结束时（结论、关键数据、运行的保存位置）。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="321"/>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="342"/>
        <source>Make a copy</source>
        <translation>复制为副本</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="344"/>
        <source>The chosen step runs its project request as the request is when the run starts. Make a copy keeps what the step sends now, whatever later happens to the request.</source>
        <translation>所选步骤运行项目中的请求,以运行开始时该请求的内容为准。“复制为副本”保留该步骤现在发送的内容,不受请求此后的修改影响。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="346"/>
        <source>Open request</source>
        <translation>打开请求</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="348"/>
        <source>Opens the request the chosen step runs, to edit it</source>
        <translation>打开所选步骤运行的请求以编辑</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="590"/>
        <source>Run it anyway?</source>
        <translation>仍然运行？</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="595"/>
        <location filename="../widgets/scenarioeditor.cpp" line="598"/>
        <source>Find capacity</source>
        <translation>寻找容量</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="599"/>
        <source>A replay sends the recording at its own pace: a capacity search raises an open model&apos;s rate. Use a scenario of requests.</source>
        <translation>回放按录制的节奏发送：容量搜索是提升开放模型的速率。请使用由请求组成的场景。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="700"/>
        <source>the recording&apos;s length</source>
        <translation>录制的时长</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="765"/>
        <source>   · its request was deleted</source>
        <translation>   · 其请求已被删除</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="767"/>
        <source>   · a copy</source>
        <translation>   · 副本</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="770"/>
        <source>The request this step ran is no longer in the project: the run refuses the step. Make a copy to keep what it last sent, or remove it.</source>
        <translation>该步骤运行的请求已不在项目中:运行会拒绝此步骤。请复制为副本以保留其上次发送的内容,或将其移除。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="772"/>
        <source>Runs the project&apos;s request “%1” as it is when the run starts</source>
        <translation>运行项目中的请求“%1”,以运行开始时的内容为准</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="774"/>
        <source>A copy: sends what it holds, whatever happens to the request it came from</source>
        <translation>副本:发送其自身保存的内容,不受来源请求的修改影响</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1011"/>
        <source>Users at the start:</source>
        <translation>初始用户数：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1012"/>
        <source>Iterations/s at the start (%1 steps: × %1 requests/s):</source>
        <translation>初始迭代/秒（%1 个步骤：× %1 请求/秒）：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1033"/>
        <source>users</source>
        <translation>用户数</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1033"/>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1043"/>
        <source>extracted by a step</source>
        <translation>由步骤提取</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1044"/>
        <source>data set</source>
        <translation>数据集</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1045"/>
        <source>generator</source>
        <translation>生成器</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1046"/>
        <source>scenario constant</source>
        <translation>场景常量</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1047"/>
        <source>environment</source>
        <translation>环境</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1048"/>
        <source>not defined</source>
        <translation>未定义</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1053"/>
        <source>The steps use no ${names}.</source>
        <translation>步骤未使用任何 ${名称}。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1054"/>
        <source>Names the steps use, and where their values come from: %1</source>
        <translation>步骤使用的名称及其取值来源：%1</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1059"/>
        <source>No step has checks: add them in a request&apos;s Checks tab.</source>
        <translation>没有步骤设置检查：请在请求的“检查”标签页中添加。</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1156"/>
        <source>its request is no longer in the project: make the step a copy or remove it</source>
        <translation>其请求已不在项目中:请将该步骤复制为副本或移除</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1166"/>
        <source>%1: %2</source>
        <extracomment>a fault of a field: the field in the designer&apos;s words, then what is wrong with it</extracomment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1212"/>
        <source>To fix before this scenario can run:</source>
        <translation>运行此场景前需修正：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1218"/>
        <source>Warning:</source>
        <translation>警告：</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1226"/>
        <location filename="../widgets/scenarioeditor.cpp" line="1231"/>
        <source>Export scenario</source>
        <translation>导出场景</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1226"/>
        <source>Scenario JSON (*.json)</source>
        <translation>场景 JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1237"/>
        <location filename="../widgets/scenarioeditor.cpp" line="1249"/>
        <location filename="../widgets/scenarioeditor.cpp" line="1257"/>
        <source>Export bundle</source>
        <translation>导出场景包</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1237"/>
        <source>Scenario bundles (*.stbundle)</source>
        <translation>场景包 (*.stbundle)</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1244"/>
        <source>(no environment)</source>
        <translation>（无环境）</translation>
    </message>
    <message>
        <location filename="../widgets/scenarioeditor.cpp" line="1249"/>
        <source>The bundle carries every environment; its constants take the values of:</source>
        <translation>打包文件带上所有环境；其常量取以下环境的值：</translation>
    </message>
</context>
<context>
    <name>ScriptEdit</name>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="96"/>
        <source>Status code: Code is 200</source>
        <translation>状态码：为 200</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="98"/>
        <source>Response body: Contains string</source>
        <translation>响应体：包含字符串</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="101"/>
        <source>Response body: JSON value check</source>
        <translation>响应体：检查 JSON 值</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="104"/>
        <source>Response body: Is equal to a string</source>
        <translation>响应体：等于某字符串</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="107"/>
        <source>Response headers: Content-Type header check</source>
        <translation>响应头：检查 Content-Type</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="110"/>
        <source>Response time is less than 200ms</source>
        <translation>响应时间小于 200ms</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="113"/>
        <source>Status code: Successful POST request</source>
        <translation>状态码：POST 请求成功</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="116"/>
        <source>Set an environment variable</source>
        <translation>设置环境变量</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="118"/>
        <source>Get an environment variable</source>
        <translation>读取环境变量</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="119"/>
        <source>Set a global variable</source>
        <translation>设置全局变量</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="120"/>
        <source>Set a collection variable</source>
        <translation>设置集合变量</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="122"/>
        <source>Get a variable</source>
        <translation>读取变量</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="123"/>
        <source>Skip the request (pre-request)</source>
        <translation>跳过请求（预请求脚本）</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="124"/>
        <source>Shared data: hand a value to one other user (runs)</source>
        <translation>共享数据：把一个值交给另一个用户（运行时）</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="126"/>
        <source>Shared data: take a value another user handed on (runs)</source>
        <translation>共享数据：取走另一个用户交来的值（运行时）</translation>
    </message>
    <message>
        <location filename="../widgets/scriptedit.cpp" line="130"/>
        <source>Shared data: count across every engine (runs)</source>
        <translation>共享数据：跨所有引擎计数（运行时）</translation>
    </message>
</context>
<context>
    <name>ScriptsPane</name>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="70"/>
        <location filename="../widgets/scriptspane.cpp" line="187"/>
        <location filename="../widgets/scriptspane.cpp" line="209"/>
        <source>Scripts</source>
        <translation>脚本</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="72"/>
        <source>Pre-request script: pm.environment.set(&quot;ts&quot;, Date.now());</source>
        <translation>前置脚本：pm.environment.set(&quot;ts&quot;, Date.now());</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="73"/>
        <source>JavaScript run before the request is rendered, as Postman runs it: it may set variables (pm.environment.set), change the headers (pm.request.headers.upsert), the URL or the body, or skip the request (pm.execution.skipRequest()).</source>
        <translation>在请求渲染之前运行的 JavaScript，与 Postman 的运行方式相同：可以设置变量（pm.environment.set），修改请求头（pm.request.headers.upsert）、URL 或请求体，或跳过该请求（pm.execution.skipRequest()）。</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="151"/>
        <source>Test script: pm.test(&quot;status 200&quot;, () =&gt; pm.response.to.have.status(200));</source>
        <translation>测试脚本：pm.test(&quot;status 200&quot;, () =&gt; pm.response.to.have.status(200));</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="152"/>
        <source>JavaScript run on the answer: each pm.test is a check (counted in runs, judged by thresholds), and what it sets (pm.environment.set) the next requests use.</source>
        <translation>在响应上运行的 JavaScript：每个 pm.test 都是一项检查（在运行中计数，由阈值判定），它设置的值（pm.environment.set）供后续请求使用。</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="83"/>
        <source>What the last Send&apos;s scripts said: each test passed or failed, with its message</source>
        <translation>上次发送时脚本的结果：每项测试通过或失败，以及其消息</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="34"/>
        <source>Snippets</source>
        <translation>代码片段</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="35"/>
        <source>Insert one of Postman&apos;s snippets at the cursor</source>
        <translation>在光标处插入 Postman 的代码片段</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="103"/>
        <source>Pre-request script</source>
        <translation>前置脚本</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="105"/>
        <source>Test script</source>
        <translation>测试脚本</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="140"/>
        <source>Test script: pm.test(&quot;OK&quot;, () =&gt; pm.response.to.have.statusCode(0));</source>
        <translation>测试脚本：pm.test(&quot;OK&quot;, () =&gt; pm.response.to.have.statusCode(0));</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="141"/>
        <source>JavaScript run on the call&apos;s answer, as Postman&apos;s gRPC scripts: pm.response.statusCode, metadata, trailers and messages (a streaming call&apos;s: the last awaited message); each pm.test is a check, and what it sets the next requests use.</source>
        <translation>在调用的应答上运行的 JavaScript，与 Postman 的 gRPC 脚本相同：pm.response.statusCode、metadata、trailers 和 messages（流式调用：最后一条等待的消息）；每个 pm.test 是一项检查，它设置的值供后续请求使用。</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="146"/>
        <source>Test script: pm.test(&quot;reply&quot;, () =&gt; pm.expect(pm.response.json().ok).to.eql(true));</source>
        <translation>测试脚本：pm.test(&quot;reply&quot;, () =&gt; pm.expect(pm.response.json().ok).to.eql(true));</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="147"/>
        <source>JavaScript run on the answer: the last message received (WebSocket) or the last awaited event (event stream) as pm.response.text() and json(); each pm.test is a check, and what it sets the next requests use.</source>
        <translation>在应答上运行的 JavaScript：收到的最后一条消息（WebSocket）或最后一个等待的事件（事件流）即 pm.response.text() 和 json()；每个 pm.test 是一项检查，它设置的值供后续请求使用。</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="197"/>
        <source>✔ %1</source>
        <translation>✔ %1</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="197"/>
        <source>✘ %1: %2</source>
        <translation>✘ %1：%2</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="202"/>
        <source>The script failed: %1</source>
        <translation>脚本失败：%1</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="207"/>
        <source>console: %1</source>
        <translation>控制台：%1</translation>
    </message>
    <message>
        <location filename="../widgets/scriptspane.cpp" line="209"/>
        <source>Scripts (%1/%2)</source>
        <translation>脚本（%1/%2）</translation>
    </message>
</context>
<context>
    <name>SsePane</name>
    <message>
        <location filename="../widgets/ssepane.cpp" line="25"/>
        <source>An http:// or https:// URL that answers text/event-stream; ${name} is replaced from the environment</source>
        <translation>返回 text/event-stream 的 http:// 或 https:// URL；${name} 由环境变量替换</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="27"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="29"/>
        <source>Read the stream until the awaited events have come, then close</source>
        <translation>读取事件流直到等待的事件到达，然后关闭</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="34"/>
        <source>Header</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="34"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="39"/>
        <source>Events to wait for before closing</source>
        <translation>关闭前等待的事件数</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="40"/>
        <source>Wait for:</source>
        <translation>等待：</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="42"/>
        <source>any type</source>
        <translation>任意类型</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="43"/>
        <source>Only events of this type count (&quot;message&quot; for unnamed ones)</source>
        <translation>只计此类型的事件（未命名的事件为 &quot;message&quot;）</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="44"/>
        <source>Event type:</source>
        <translation>事件类型：</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="47"/>
        <source>When the stream ends first: connect again this many times, with Last-Event-ID</source>
        <translation>事件流提前结束时：带 Last-Event-ID 重新连接的次数</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="48"/>
        <source>Reconnects:</source>
        <translation>重连：</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="53"/>
        <source>From the connect to the last awaited event</source>
        <translation>从连接到最后一个等待的事件</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="54"/>
        <source>Timeout:</source>
        <translation>超时：</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="56"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="57"/>
        <source>Headers</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="65"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="65"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="65"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="65"/>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <location filename="../widgets/ssepane.cpp" line="122"/>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
</context>
<context>
    <name>StagesModel</name>
    <message>
        <location filename="../models/stagesmodel.cpp" line="34"/>
        <source>hold</source>
        <translation>保持</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="36"/>
        <source>ramp</source>
        <translation>线性爬坡</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="38"/>
        <source>step</source>
        <translation>阶梯</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="40"/>
        <source>spike</source>
        <translation>尖峰</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="59"/>
        <location filename="../models/stagesmodel.cpp" line="113"/>
        <source>keep</source>
        <translation>保持</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="60"/>
        <location filename="../models/stagesmodel.cpp" line="113"/>
        <source>(keep)</source>
        <translation>（保持原值）</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="68"/>
        <source>Keep the target level (or the previous one) for the duration.</source>
        <translation>在持续时间内保持目标水平（或上一水平）。</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="70"/>
        <source>Change linearly from the previous level to the target over the duration.</source>
        <translation>在持续时间内从上一水平线性变化到目标。</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="72"/>
        <source>Climb from the previous level to the target in equal steps at equal intervals.</source>
        <translation>以等间隔、等幅度的阶梯从上一水平升到目标。</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="74"/>
        <source>Jump to the target for the duration, then return to the previous level.</source>
        <translation>在持续时间内跳到目标，之后回到上一水平。</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="158"/>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="160"/>
        <source>Duration (s)</source>
        <translation>时长（秒）</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="162"/>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../models/stagesmodel.cpp" line="164"/>
        <source>Steps</source>
        <translation>阶梯数</translation>
    </message>
</context>
<context>
    <name>StepOptionsForm</name>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="42"/>
        <location filename="../widgets/stepoptionsform.cpp" line="67"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="43"/>
        <source>A transaction: the neighbouring steps of one group are also timed together, per iteration, from the first one&apos;s start to the last one&apos;s end</source>
        <translation>事务：同一分组中相邻的步骤还会按每次迭代合并计时，从第一个步骤开始到最后一个步骤结束</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="47"/>
        <source>How many times in a row the step is sent in each iteration</source>
        <translation>每次迭代中该步骤连续发送的次数</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="49"/>
        <source>end the iteration</source>
        <translation>结束本次迭代</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="50"/>
        <source>go on with the next step</source>
        <translation>继续下一个步骤</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="51"/>
        <source>stop this user</source>
        <translation>停止该用户</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="52"/>
        <source>stop the run</source>
        <translation>停止运行</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="53"/>
        <source>What an error of this step does: a failed check, a transport error, or a status of 400 or more that no status check accepts</source>
        <translation>该步骤出错时的处理：错误指检查失败、传输错误，或没有状态检查接受的 400 及以上状态码</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="57"/>
        <source>no retry</source>
        <translation>不重试</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="58"/>
        <source> times</source>
        <translation> 次</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="59"/>
        <source>An error is tried again this many more times; only the last try counts, the others are counted as retries</source>
        <translation>出错后再重试这么多次；只统计最后一次尝试，其余计为重试</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="63"/>
        <location filename="../widgets/stepoptionsform.cpp" line="74"/>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="64"/>
        <source>The wait before each retry</source>
        <translation>每次重试前的等待时间</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="68"/>
        <source> users</source>
        <translation> 个用户</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="69"/>
        <source>A rendezvous: users wait at this step until this many have arrived on every engine together, then all go at once (a flash sale&apos;s second)</source>
        <translation>集合点：用户在此步骤等待，直到所有引擎上共有这么多用户到达，然后同时出发（秒杀的那一秒）</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="75"/>
        <source>The users waiting go anyway when the first of them has waited this long</source>
        <translation>当最先到达的用户已等待这么久时，正在等待的用户仍会出发</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="87"/>
        <source>backoff</source>
        <translation>退避</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="92"/>
        <source>at most</source>
        <translation>最多等待</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="97"/>
        <source>Group:</source>
        <translation>分组：</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="98"/>
        <source>Repeat:</source>
        <translation>重复：</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="99"/>
        <source>On error:</source>
        <translation>出错时：</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="100"/>
        <source>Retry:</source>
        <translation>重试：</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="101"/>
        <source>Rendezvous:</source>
        <translation>集合点：</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="170"/>
        <source>group %1</source>
        <translation>分组 %1</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="172"/>
        <source>×%1</source>
        <translation>×%1</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="174"/>
        <source>rendezvous of %1</source>
        <translation>%1 人集合点</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="176"/>
        <source>retry %1</source>
        <translation>重试 %1 次</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="179"/>
        <source>on error: go on</source>
        <translation>出错时：继续</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="181"/>
        <source>on error: stop the user</source>
        <translation>出错时：停止该用户</translation>
    </message>
    <message>
        <location filename="../widgets/stepoptionsform.cpp" line="183"/>
        <source>on error: stop the run</source>
        <translation>出错时：停止运行</translation>
    </message>
</context>
<context>
    <name>TimeChart</name>
    <message>
        <location filename="../widgets/timechart.cpp" line="68"/>
        <source>µs</source>
        <translation>微秒</translation>
    </message>
    <message>
        <location filename="../widgets/timechart.cpp" line="70"/>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <location filename="../widgets/timechart.cpp" line="71"/>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/timechart.cpp" line="112"/>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
</context>
<context>
    <name>TrafficImportDialog</name>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="21"/>
        <location filename="../widgets/trafficimportdialog.cpp" line="81"/>
        <source>Import traffic</source>
        <translation>导入流量</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="25"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="28"/>
        <source>Access log: combined (nginx, Apache)</source>
        <translation>访问日志：combined（nginx、Apache）</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="29"/>
        <source>HAR 1.2 (a browser&apos;s recording)</source>
        <translation>HAR 1.2（浏览器录制）</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="30"/>
        <source>Access log: Caddy (JSON)</source>
        <translation>访问日志：Caddy（JSON）</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="31"/>
        <source>Access log: Traefik (JSON)</source>
        <translation>访问日志：Traefik（JSON）</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="32"/>
        <source>Access log: Envoy (default format)</source>
        <translation>访问日志：Envoy（默认格式）</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="33"/>
        <source>Access log: HAProxy (option httplog)</source>
        <translation>访问日志：HAProxy（option httplog）</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="34"/>
        <source>Access log: nginx log_format…</source>
        <translation>访问日志：nginx log_format…</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="39"/>
        <source>The log_format directive from nginx.conf, or its format string: $remote_addr, $time_local, $time_iso8601, $msec, $request, $request_uri, $request_body, $http_NAME, $status, $request_time are read</source>
        <translation>nginx.conf 中的 log_format 指令或其格式字符串：会读取 $remote_addr、$time_local、$time_iso8601、$msec、$request、$request_uri、$request_body、$http_NAME、$status、$request_time</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="47"/>
        <source>the file&apos;s name</source>
        <translation>文件名</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="50"/>
        <source>As recorded</source>
        <translation>录制原样</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="50"/>
        <source>As stored</source>
        <translation>存储内容</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="50"/>
        <source>Masked by</source>
        <translation>脱敏规则</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="51"/>
        <source>Which rules changed the request, and how many values each</source>
        <translation>哪些规则改动了该请求，各改了几个值</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="64"/>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="65"/>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="67"/>
        <source>Masking:</source>
        <translation>脱敏：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="68"/>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="70"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="73"/>
        <source>The first requests, before and after masking:</source>
        <translation>前几个请求，脱敏前后对比：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="82"/>
        <source>Access logs and HAR files (*.log *.gz *.har *.txt);;All files (*)</source>
        <translation>访问日志和 HAR 文件 (*.log *.gz *.har *.txt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="134"/>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="145"/>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <location filename="../widgets/trafficimportdialog.cpp" line="145"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>TrafficImporter</name>
    <message>
        <location filename="../models/trafficimporter.cpp" line="113"/>
        <source>Choose the file to import.</source>
        <translation>请选择要导入的文件。</translation>
    </message>
    <message>
        <location filename="../models/trafficimporter.cpp" line="115"/>
        <source>&quot;%1&quot; is not a file.</source>
        <translation>“%1”不是文件。</translation>
    </message>
    <message>
        <location filename="../models/trafficimporter.cpp" line="157"/>
        <source>No line of the file&apos;s beginning could be read.</source>
        <translation>文件开头没有任何一行可以读取。</translation>
    </message>
    <message>
        <location filename="../models/trafficimporter.cpp" line="199"/>
        <source>The file could not be read.</source>
        <translation>无法读取该文件。</translation>
    </message>
    <message>
        <location filename="../models/trafficimporter.cpp" line="207"/>
        <source>Import cancelled: nothing was stored.</source>
        <translation>导入已取消：未存储任何内容。</translation>
    </message>
    <message>
        <location filename="../models/trafficimporter.cpp" line="209"/>
        <source>None of the %1 lines could be read.</source>
        <translation>%1 行中没有任何一行可以读取。</translation>
    </message>
    <message>
        <location filename="../models/trafficimporter.cpp" line="236"/>
        <source>%1 requests stored as &quot;%2&quot;; %3 of %4 lines could not be read</source>
        <translation>已存储 %1 个请求为“%2”；%4 行中有 %3 行无法读取</translation>
    </message>
    <message>
        <location filename="../models/trafficimporter.cpp" line="264"/>
        <source>One rule per line, applied before anything is stored: FIELD:NAME=ACTION with FIELD query, header, json, form, cookie or regex (a NAME may list several: query:token|sign=hash) and ACTION hash (stable per project), replace:TEXT or drop; or preset:NAME (%1)</source>
        <translation>每行一条规则，在存储前应用：FIELD:NAME=ACTION，FIELD 为 query、header、json、form、cookie 或 regex（NAME 可列多个：query:token|sign=hash），ACTION 为 hash（同一项目内稳定）、replace:TEXT 或 drop；或 preset:NAME（%1）</translation>
    </message>
</context>
<context>
    <name>TrafficRecordDialog</name>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="40"/>
        <source>Record traffic</source>
        <translation>录制流量</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="43"/>
        <source>The address the gateway&apos;s mirror sends to: 127.0.0.1:9000, [::1]:9000, or 0.0.0.0:9000 to take it from other machines</source>
        <translation>网关镜像发往的地址：127.0.0.1:9000、[::1]:9000，或 0.0.0.0:9000 以接收其他机器的流量</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="46"/>
        <source>gateway %1</source>
        <translation>网关 %1</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="54"/>
        <source>every host</source>
        <translation>所有主机</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="55"/>
        <source>Keep only requests for this Host (without a port: any port)</source>
        <translation>只保留发往此 Host 的请求（不写端口：任意端口）</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="58"/>
        <source>every path, e.g. ^/api/</source>
        <translation>所有路径，例如 ^/api/</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="59"/>
        <source>A regular expression (PCRE2) the path must match to be kept</source>
        <translation>路径须匹配此正则表达式（PCRE2）才保留</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="62"/>
        <source>none, e.g. ^/static/</source>
        <translation>无，例如 ^/static/</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="63"/>
        <source>A regular expression (PCRE2): paths it matches are not kept</source>
        <translation>正则表达式（PCRE2）：匹配的路径不保留</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="69"/>
        <source>Of the requests the rules above keep, this share, chosen at random</source>
        <translation>在上述规则保留的请求中，随机抽取此比例</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="76"/>
        <source>What nginx needs to send a copy of every request here (see docs/replay.md for keep-alive)</source>
        <translation>nginx 把每个请求的副本发到这里所需的配置（长连接见 docs/replay.md）</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="82"/>
        <source>Listen on:</source>
        <translation>监听：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="83"/>
        <source>Traffic set:</source>
        <translation>流量集：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="84"/>
        <source>Masking:</source>
        <translation>脱敏：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="85"/>
        <source>Only host:</source>
        <translation>仅主机：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="86"/>
        <source>Only paths:</source>
        <translation>仅路径：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="87"/>
        <source>Not paths:</source>
        <translation>排除路径：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="88"/>
        <source>Sample:</source>
        <translation>抽样：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="90"/>
        <location filename="../widgets/trafficrecorddialog.cpp" line="117"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="95"/>
        <source>nginx, in the server that takes the traffic:</source>
        <translation>nginx，在接收流量的 server 中：</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="109"/>
        <source>Recording on %1: %2 requests kept (%3/s) · %4 filtered · %5 dropped · %6 bad</source>
        <translation>正在 %1 录制：已保留 %2 个请求（%3/秒）· 过滤 %4 · 丢弃 %5 · 错误 %6</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="174"/>
        <source>Storing the last requests…</source>
        <translation>正在保存最后的请求…</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="185"/>
        <source>Recording on %1: waiting for the first request…</source>
        <translation>正在 %1 录制：等待第一个请求…</translation>
    </message>
    <message>
        <location filename="../widgets/trafficrecorddialog.cpp" line="186"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
</context>
<context>
    <name>TrafficRecording</name>
    <message>
        <location filename="../models/trafficrecording.cpp" line="25"/>
        <source>Only paths</source>
        <translation>仅路径</translation>
    </message>
    <message>
        <location filename="../models/trafficrecording.cpp" line="26"/>
        <source>Not paths</source>
        <translation>排除路径</translation>
    </message>
    <message>
        <location filename="../models/trafficrecording.cpp" line="37"/>
        <source>The sample is a percentage above 0 and at most 100.</source>
        <translation>抽样比例须大于 0 且不超过 100。</translation>
    </message>
    <message>
        <location filename="../models/trafficrecording.cpp" line="65"/>
        <source>Give the traffic set a name.</source>
        <translation>请为流量集命名。</translation>
    </message>
    <message>
        <location filename="../models/trafficrecording.cpp" line="85"/>
        <source>The project already has a traffic set named &quot;%1&quot;.</source>
        <translation>项目中已有名为“%1”的流量集。</translation>
    </message>
    <message>
        <location filename="../models/trafficrecording.cpp" line="185"/>
        <source>The traffic could not be stored: %1</source>
        <translation>流量无法保存：%1</translation>
    </message>
    <message>
        <location filename="../models/trafficrecording.cpp" line="189"/>
        <source>Nothing was recorded (%1 requests received, %2 filtered): no traffic set is kept.</source>
        <translation>未录制到任何请求（收到 %1 个，过滤 %2 个）：不保留流量集。</translation>
    </message>
    <message>
        <location filename="../models/trafficrecording.cpp" line="195"/>
        <source>%1 requests stored; %2 filtered, %3 dropped, %4 bad.</source>
        <translation>已保存 %1 个请求；过滤 %2，丢弃 %3，错误 %4。</translation>
    </message>
</context>
<context>
    <name>TrafficView</name>
    <message>
        <location filename="../widgets/trafficview.cpp" line="22"/>
        <source>Recorded traffic from %1</source>
        <translation>录制的流量，来自 %1</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="23"/>
        <source>%1 requests, from %2 to %3</source>
        <translation>%1 个请求，从 %2 到 %3</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="26"/>
        <source>%1 lines read, %2 could not be read</source>
        <translation>读取 %1 行，其中 %2 行无法读取</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="30"/>
        <source>  line %1: %2</source>
        <translation>  第 %1 行：%2</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="36"/>
        <source>Masked before storage: %1</source>
        <translation>存储前已脱敏：%1</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="36"/>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="39"/>
        <source>Reading the requests…</source>
        <translation>正在读取请求…</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="43"/>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="43"/>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="51"/>
        <source>New replay scenario</source>
        <translation>新建回放场景</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="53"/>
        <source>A scenario that sends these requests at their recorded times to a server you choose, sped up or amplified if you like</source>
        <translation>一个场景：按录制时间把这些请求发往你选择的服务器，可加速或放大</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="77"/>
        <source>The traffic set&apos;s requests are damaged.</source>
        <translation>流量集的请求数据已损坏。</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="80"/>
        <source>%1 s long, at most %2 requests in a second; %3 clients; %4</source>
        <translation>时长 %1 秒，单秒最多 %2 个请求；%3 个客户端；%4</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="85"/>
        <source>Requests per second, as recorded</source>
        <translation>每秒请求数（录制原样）</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="85"/>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <location filename="../widgets/trafficview.cpp" line="86"/>
        <source>recorded</source>
        <translation>录制</translation>
    </message>
</context>
<context>
    <name>TrendModel</name>
    <message>
        <location filename="../models/trendmodel.cpp" line="17"/>
        <source>total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="81"/>
        <source>The newest run is the baseline: nothing to compare it with</source>
        <translation>最新的运行就是基线：没有可比较的对象</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="83"/>
        <source>The newest run holds against the baseline</source>
        <translation>最新的运行相对基线保持住了</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="93"/>
        <source>The newest run regressed against the baseline: %1</source>
        <translation>最新的运行相对基线退化：%1</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="150"/>
        <source>%1 (baseline)</source>
        <translation>%1（基线）</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="167"/>
        <source>the baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="169"/>
        <source>holds</source>
        <translation>保持</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="173"/>
        <source>regressed: %1</source>
        <translation>退化：%1</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="186"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="188"/>
        <source>Started</source>
        <translation>开始于</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="190"/>
        <source>Rate/s</source>
        <translation>速率/秒</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="192"/>
        <source>Errors %</source>
        <translation>错误 %</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="194"/>
        <source>p50 ms</source>
        <translation>p50 毫秒</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="196"/>
        <source>p95 ms</source>
        <translation>p95 毫秒</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="198"/>
        <source>p99 ms</source>
        <translation>p99 毫秒</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="200"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../models/trendmodel.cpp" line="202"/>
        <source>Against the baseline</source>
        <translation>与基线相比</translation>
    </message>
</context>
<context>
    <name>TrendView</name>
    <message>
        <location filename="../widgets/trendview.cpp" line="28"/>
        <source>The scenario whose completed runs are shown</source>
        <translation>显示其已完成运行的场景</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="35"/>
        <source>last </source>
        <translation>最近 </translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="36"/>
        <source> runs</source>
        <translation> 次运行</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="37"/>
        <source>How many of the scenario&apos;s newest completed runs are shown</source>
        <translation>显示该场景最近多少次已完成的运行</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="42"/>
        <source>A change for the worse against the baseline beyond this is a regression</source>
        <translation>相对基线变差超过此值即为退化</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="43"/>
        <location filename="../widgets/trendview.cpp" line="86"/>
        <source>Mark as baseline</source>
        <translation>标记为基线</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="45"/>
        <source>The selected run becomes the scenario&apos;s baseline, kept in the project (stampede-cli report trend uses it too)</source>
        <translation>所选运行成为该场景的基线，保存在项目中（stampede-cli report trend 也使用它）</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="47"/>
        <source>Export HTML…</source>
        <translation>导出 HTML…</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="52"/>
        <source>Scenario:</source>
        <translation>场景：</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="55"/>
        <source>Tolerance:</source>
        <translation>容差：</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="86"/>
        <source>Select the run to compare the others with.</source>
        <translation>请选择用来与其他运行比较的那次运行。</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="93"/>
        <location filename="../widgets/trendview.cpp" line="98"/>
        <source>Export trend</source>
        <translation>导出趋势</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="135"/>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="138"/>
        <source>regressed</source>
        <translation>退化</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="145"/>
        <source>Throughput over runs</source>
        <translation>各次运行的吞吐量</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="145"/>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="145"/>
        <source>rate</source>
        <translation>速率</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="146"/>
        <source>Error rate over runs</source>
        <translation>各次运行的错误率</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="146"/>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="146"/>
        <source>errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="147"/>
        <source>Latency over runs</source>
        <translation>各次运行的延迟</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="148"/>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <location filename="../widgets/trendview.cpp" line="157"/>
        <source>run (oldest first)</source>
        <translation>运行（最早的在前）</translation>
    </message>
</context>
<context>
    <name>VariablesModel</name>
    <message>
        <location filename="../models/variablesmodel.cpp" line="17"/>
        <source>constant</source>
        <translation>常量</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="19"/>
        <source>increment</source>
        <translation>自增</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="21"/>
        <source>random integer</source>
        <translation>随机整数</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="23"/>
        <source>random string</source>
        <translation>随机字符串</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="25"/>
        <source>UUID</source>
        <translation>UUID</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="27"/>
        <source>data set</source>
        <translation>数据集</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="42"/>
        <source>write MIN..MAX, optionally with step N, e.g. 1..1000 step 1</source>
        <translation>请写 最小..最大，可加 step N，例如 1..1000 step 1</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="43"/>
        <source>write MIN..MAX, e.g. 1..100</source>
        <translation>请写 最小..最大，例如 1..100</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="45"/>
        <source>MAX must not be below MIN</source>
        <translation>最大值不能小于最小值</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="47"/>
        <source>the step must be at least 1</source>
        <translation>步长至少为 1</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="53"/>
        <source>write the length, from 1 to 65536</source>
        <translation>请写长度，1 到 65536</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="61"/>
        <source>write wrap, stop, per-user or checkout (an account pool; checkout 2s: wait up to 2 s for a free row)</source>
        <translation>请填写 wrap、stop、per-user 或 checkout（账号池；checkout 2s：最多等待 2 秒取得空闲的行）</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="168"/>
        <source>constant: the value · increment: 1..1000 step 1 · random integer: 1..100 · random string: its length · data set: wrap, stop, per-user or checkout (an account pool: each iteration holds a row no other user holds, on any engine; &quot;checkout 2s&quot; waits up to 2 s for one, 10 s by default)</source>
        <translation>常量：其值 · 自增：1..1000 step 1 · 随机整数：1..100 · 随机字符串：其长度 · 数据集：wrap、stop、per-user 或 checkout（账号池：每次迭代独占一行，任何引擎上都不会有其他用户同时持有；&quot;checkout 2s&quot; 最多等待 2 秒，默认 10 秒）</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="158"/>
        <source>Variable</source>
        <translation>变量</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="160"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="162"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../models/variablesmodel.cpp" line="164"/>
        <source>Used by</source>
        <translation>使用者</translation>
    </message>
</context>
<context>
    <name>WelcomePage</name>
    <message>
        <location filename="../widgets/welcomepage.cpp" line="13"/>
        <source>&lt;h2&gt;Stampede&lt;/h2&gt;&lt;p&gt;Build requests, shape the load, run it on engines and watch it live. Everything you edit is saved in the project at once.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Stampede&lt;/h2&gt;&lt;p&gt;构建请求、设计负载、在引擎上运行并实时观察。你编辑的一切都会立即保存在项目中。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../widgets/welcomepage.cpp" line="16"/>
        <source>New project…</source>
        <translation>新建项目…</translation>
    </message>
    <message>
        <location filename="../widgets/welcomepage.cpp" line="18"/>
        <source>A new project file (.stampede) for requests, scenarios, data and runs</source>
        <translation>新的项目文件（.stampede），存放请求、场景、数据和运行记录</translation>
    </message>
    <message>
        <location filename="../widgets/welcomepage.cpp" line="19"/>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <location filename="../widgets/welcomepage.cpp" line="21"/>
        <source>Open the demo</source>
        <translation>打开演示</translation>
    </message>
    <message>
        <location filename="../widgets/welcomepage.cpp" line="23"/>
        <source>A sample shop with requests, a data set and scenarios, against a mock server this program starts for it</source>
        <translation>一个示例商店：包含请求、数据集和场景，使用本程序为它启动的模拟服务器</translation>
    </message>
    <message>
        <location filename="../widgets/welcomepage.cpp" line="27"/>
        <source>Double-click (or Enter) to open</source>
        <translation>双击（或按回车）打开</translation>
    </message>
    <message>
        <location filename="../widgets/welcomepage.cpp" line="40"/>
        <source>&lt;b&gt;Recent projects&lt;/b&gt;</source>
        <translation>&lt;b&gt;最近的项目&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../widgets/welcomepage.cpp" line="79"/>
        <source>None yet: create a project, open one, or start with the demo.</source>
        <translation>还没有：新建一个项目、打开一个，或从演示开始。</translation>
    </message>
</context>
<context>
    <name>WsRequestPane</name>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="68"/>
        <source>ws:// or wss:// (over TLS); ${name} is replaced from the environment</source>
        <translation>ws:// 或 wss://（经 TLS）；${name} 由环境变量替换</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="69"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="71"/>
        <source>Connect, send the messages in order, wait for the replies, then close</source>
        <translation>连接，按顺序发送消息，等待回复，然后关闭</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="30"/>
        <source>A text message; ${name} is replaced when it is sent</source>
        <translation>一条文本消息；发送时替换 ${name}</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="32"/>
        <source>Add message</source>
        <translation>添加消息</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="33"/>
        <source>Add the message to the list sent in order</source>
        <translation>把消息加入按顺序发送的列表</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="34"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="78"/>
        <source>Header</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="78"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="83"/>
        <source>Subprotocols offered in Sec-WebSocket-Protocol, in order of preference</source>
        <translation>在 Sec-WebSocket-Protocol 中提供的子协议，按优先顺序</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="84"/>
        <source>Subprotocols:</source>
        <translation>子协议：</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="87"/>
        <source>one per message</source>
        <translation>每条消息一条</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="89"/>
        <source>Messages to wait for before closing (0: close once sent)</source>
        <translation>关闭前等待的消息数（0：发送完即关闭）</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="90"/>
        <source>Wait for:</source>
        <translation>等待：</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="91"/>
        <source>Send each message after the reply to the one before</source>
        <translation>每条消息在上一条收到回复后再发送</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="92"/>
        <source>Request/reply: each message latency is then one round trip</source>
        <translation>请求/应答：每条消息的延迟即一次往返</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="94"/>
        <source>Compress messages (permessage-deflate)</source>
        <translation>压缩消息（permessage-deflate）</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="96"/>
        <source>Offer RFC 7692&apos;s compression: when the server agrees, messages go and come compressed</source>
        <translation>提议 RFC 7692 的压缩：服务端同意后，收发的消息都经过压缩</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="102"/>
        <source>From the connect to the last awaited message</source>
        <translation>从连接到最后一条等待的消息</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="103"/>
        <source>Timeout:</source>
        <translation>超时：</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="106"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="107"/>
        <source>Headers</source>
        <translation>请求头</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="108"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="114"/>
        <source>Each message both ways: ↑ sent, ↓ received, with its time from the connect</source>
        <translation>双向的每条消息：↑ 已发送，↓ 已接收，以及从连接起的时间</translation>
    </message>
    <message numerus="yes">
        <location filename="../widgets/wsrequestpane.cpp" line="160"/>
        <source>binary, %n byte(s)</source>
        <translation>
            <numerusform>二进制，%n 字节</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../widgets/wsrequestpane.cpp" line="198"/>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
</context>
</TS>
