-- name: versions-test
-- summary: (test) the versions each run of a plan recorded: no chart, the table view
-- param: plan  the plan
-- key: run
SELECT r.name AS run, json_extract(r.attributes, '$.jdk') AS jdk, json_extract(r.attributes, '$.protobuf') AS protobuf,
       json_extract(r.attributes, '$.kernel') AS kernel, r.source
FROM plan p JOIN run r ON r.plan_id = p.id
WHERE p.name = :plan
ORDER BY r.name;
