<?php
/**
 * Drives the official PHP client (amocrm/amocrm-api-php) through the calls of issue 30 against a sandbox over https,
 * and prints, as JSON on stdout, every request it sent (as guzzle handed it to curl) with the status it was answered
 * and what the client read from the answers. record.ts beside it starts the sandbox, runs this and writes
 * test/clients/fixtures/php-requests.json; test/clients/php-requests.test.ts and php-account.test.ts replay them.
 *
 * Input, from the environment:
 *   PHP_CLIENT_AUTOLOAD  an autoloader that loads the client and its dependencies (composer's vendor/autoload.php)
 *   ACCOUNT_DOMAIN       <subdomain>.sandbox.localhost:<port>, what setAccountBaseDomain() takes
 *   ACCOUNT_RESOLVE      <subdomain>.sandbox.localhost:<port>:127.0.0.1, for CURLOPT_RESOLVE (no /etc/hosts entry)
 *   CA_FILE              the sandbox's CA (guzzle's `verify`, curl's CURLOPT_CAINFO)
 *   CONTROL_URL          the sandbox's control API (docs/control-api.md), called beside the client to move the clock
 *   CLIENT_ID, CLIENT_SECRET, REDIRECT_URI, AUTH_CODE   the integration and a fresh authorization code
 *   LEAD_ID, SET_FIELD_ID, CLEAR_FIELD_ID, DATE_FIELD_ID   a lead holding a date and a date-time value, a text field
 *                       it holds no value of, a field it holds, its date-time field
 *   PIPELINE_ID, PAGE_LIMIT   a pipeline of more leads than a page holds, and a page's size: a walk over pages
 * The secrets (client id and secret, code, access and refresh tokens, those of the refresh too: {{access_token_2}}, ...)
 * are replaced by {{name}} in what is printed.
 */

declare(strict_types=1);

use AmoCRM\Client\AmoCRMApiClient;
use AmoCRM\Client\AmoCRMApiRequest;
use AmoCRM\Collections\CustomFieldsValuesCollection;
use AmoCRM\Collections\Leads\LeadsCollection;
use AmoCRM\Exceptions\AmoCRMApiPageNotAvailableException;
use AmoCRM\Filters\LeadsFilter;
use AmoCRM\Models\AccountModel;
use AmoCRM\Models\ContactModel;
use AmoCRM\Models\CustomFieldsValues\TextCustomFieldValuesModel;
use AmoCRM\Models\CustomFieldsValues\ValueCollections\NullCustomFieldValueCollection;
use AmoCRM\Models\CustomFieldsValues\ValueCollections\TextCustomFieldValueCollection;
use AmoCRM\Models\CustomFieldsValues\ValueModels\TextCustomFieldValueModel;
use AmoCRM\Models\LeadModel;
use GuzzleHttp\Client;
use GuzzleHttp\HandlerStack;
use GuzzleHttp\Middleware;

function env(string $name): string
{
    $value = getenv($name);
    if ($value === false || $value === '') {
        fwrite(STDERR, "record.php: $name is not set\n");
        exit(2);
    }
    return $value;
}

require env('PHP_CLIENT_AUTOLOAD');

$leadId = (int)env('LEAD_ID');
$setFieldId = (int)env('SET_FIELD_ID');
$clearFieldId = (int)env('CLEAR_FIELD_ID');
$dateFieldId = (int)env('DATE_FIELD_ID');
$pipelineId = (int)env('PIPELINE_ID');
$pageLimit = (int)env('PAGE_LIMIT');
/** Past an access token's life (a day) and within a refresh token's (three months). */
const EXPIRED_AFTER = 2 * 86400;

// Pushed last, the history middleware sits next to the curl handler: it sees the request after guzzle's own
// middleware (the JSON body and its Content-Type, Content-Length) as curl sends it.
$history = [];
$stack = HandlerStack::create();
$stack->push(Middleware::history($history));
$httpClient = new Client([
    'handler' => $stack,
    'verify' => env('CA_FILE'),
    'curl' => [CURLOPT_RESOLVE => [env('ACCOUNT_RESOLVE')]],
]);

$apiClient = new AmoCRMApiClient(env('CLIENT_ID'), env('CLIENT_SECRET'), env('REDIRECT_URI'));
$apiClient->getOAuthClient()->getOAuthProvider()->setHttpClient($httpClient);
$apiClient->setAccountBaseDomain(env('ACCOUNT_DOMAIN'));

$calls = [];
/** Runs one call of the issue: the requests it added to the history and what the client read, or the exception. */
function call(string $what, callable $body, ?array $before = null): void
{
    global $calls, $history;
    $from = count($history);
    $entry = ['what' => $what] + ($before === null ? [] : ['before' => $before]);
    try {
        $read = $body();
        $calls[] = $entry + ['from' => $from, 'to' => count($history), 'client_read' => $read];
    } catch (Throwable $e) {
        $info = method_exists($e, 'getLastRequestInfo') ? $e->getLastRequestInfo() : null;
        $calls[] = $entry + ['from' => $from, 'to' => count($history), 'error' => get_class($e) . ': ' . $e->getMessage(), 'info' => $info];
    }
}

$token = null;
$refreshed = null;
call('getOAuthClient()->getAccessTokenByCode($code): the authorization code exchanged', function () use ($apiClient, &$token, &$refreshed) {
    $token = $apiClient->getOAuthClient()->getAccessTokenByCode(env('AUTH_CODE'));
    $apiClient->setAccessToken($token)->onAccessTokenRefresh(function ($new) use (&$refreshed) { $refreshed = $new; });
    return ['expires' => is_int($token->getExpires())];
});

call('account()->getCurrent(AccountModel::getAvailableWith()): the account with every with= value the client knows', function () use ($apiClient) {
    $account = $apiClient->account()->getCurrent(AccountModel::getAvailableWith());
    return [
        'id' => $account->getId(), 'subdomain' => $account->getSubdomain(), 'customers_mode' => $account->getCustomersMode(),
        'amojo_id' => $account->getAmojoId() !== null, 'uuid' => $account->getUuid() !== null, 'version' => $account->getVersion() !== null,
        'is_api_filter_enabled' => $account->getIsApiFilterEnabled(), 'drive_url' => $account->getDriveUrl() !== null,
        'timezone' => $account->getDatetimeSettings() ? $account->getDatetimeSettings()->getTimezone() : null,
        'users_groups' => $account->getUsersGroups() ? $account->getUsersGroups()->count() : null,
        'task_types' => $account->getTaskTypes() ? $account->getTaskTypes()->count() : null,
    ];
});

call('getOAuthClient()->getAccountDomainByRefreshToken($token): the account of a refresh token, at the api_domain of the access token (a JWT)', function () use ($apiClient, &$token) {
    $domain = $apiClient->getOAuthClient()->getAccountDomainByRefreshToken($token);
    return [
        'id' => $domain->getId(), 'subdomain' => $domain->getSubdomain(), 'top_level_domain' => $domain->getTopLevelDomain(),
        // The host:port the client was pointed at, so the same call again (setAccountBaseDomain) reaches the sandbox.
        'domain_is_the_account_host' => $domain->getDomain() === env('ACCOUNT_DOMAIN'),
    ];
});

call('leads()->get(LeadsFilter: one pipeline, limit, order by id descending), then nextPage() to the end: a filtered walk over pages', function () use ($apiClient, $pipelineId, $pageLimit) {
    $filter = (new LeadsFilter())->setPipelineIds([$pipelineId])->setLimit($pageLimit)->setOrder('id', 'desc');
    $pages = [];
    $page = $apiClient->leads()->get($filter);
    while (true) {
        $pages[] = array_map(function ($lead) { return $lead->getId(); }, $page->all());
        try {
            // nextPage() follows _links.next.href, cutting the account's address off its front.
            $page = $apiClient->leads()->nextPage($page);
        } catch (AmoCRMApiPageNotAvailableException $e) {
            break;
        }
    }
    return ['pages' => $pages];
});

$got = null;
call('leads()->getOne($id), setName(...), leads()->updateOne($lead): a read-modify-write of a lead holding date values', function () use ($apiClient, $leadId, &$got) {
    $got = $apiClient->leads()->getOne($leadId);
    $dates = [];
    foreach ($got->getCustomFieldsValues() ?? [] as $field) {
        $value = $field->getValues()->first()->getValue();
        if ($value instanceof DateTimeInterface) {
            $dates[$field->getFieldId()] = $value->format(DateTime::RFC3339);
        }
    }
    $got->setName('Renamed by the PHP client');
    $updated = $apiClient->leads()->updateOne($got);
    return ['id' => $updated->getId(), 'updated_at' => is_int($updated->getUpdatedAt()), 'dates' => $dates];
});

call('a new LeadModel with the id and one text field\'s value, leads()->updateOne($lead): a PATCH that names one custom field', function () use ($apiClient, $leadId, $setFieldId) {
    $values = (new TextCustomFieldValuesModel())->setFieldId($setFieldId)->setValues(
        (new TextCustomFieldValueCollection())->add((new TextCustomFieldValueModel())->setValue('set by the PHP client'))
    );
    $lead = (new LeadModel())->setId($leadId)->setCustomFieldsValues((new CustomFieldsValuesCollection())->add($values));
    $updated = $apiClient->leads()->updateOne($lead);
    return ['id' => $updated->getId(), 'updated_at' => is_int($updated->getUpdatedAt())];
});

call('the field\'s model as read by getOne, setValues(new NullCustomFieldValueCollection()), leads()->update($collection): clearing one field', function () use ($apiClient, $leadId, $clearFieldId, &$got) {
    $field = $got->getCustomFieldsValues()->getBy('fieldId', $clearFieldId);
    $field->setValues(new NullCustomFieldValueCollection());
    $lead = (new LeadModel())->setId($leadId)->setCustomFieldsValues((new CustomFieldsValuesCollection())->add($field));
    $updated = $apiClient->leads()->update((new LeadsCollection())->add($lead));
    $first = $updated->first();
    return ['field_type' => $field->getFieldType(), 'id' => $first->getId(), 'updated_at' => is_int($first->getUpdatedAt())];
});

call('the date-time field\'s model as read by getOne, its value set to a DateTime in PHP\'s time zone, leads()->updateOne($lead), then leads()->getOne($id)', function () use ($apiClient, $leadId, $dateFieldId, &$got) {
    $field = $got->getCustomFieldsValues()->getBy('fieldId', $dateFieldId);
    $field->getValues()->first()->setValue(new DateTime('2026-11-28 12:34:56'));
    $lead = (new LeadModel())->setId($leadId)->setCustomFieldsValues((new CustomFieldsValuesCollection())->add($field));
    $updated = $apiClient->leads()->updateOne($lead);
    $value = $apiClient->leads()->getOne($leadId)->getCustomFieldsValues()->getBy('fieldId', $dateFieldId)->getValues()->first()->getValue();
    return ['field_type' => $field->getFieldType(), 'id' => $updated->getId(), 'updated_at' => is_int($updated->getUpdatedAt()), 'read_back' => $value->getTimestamp()];
});

call('a ContactModel with setFirstName(\'Ada\') and setLastName(\'Lovelace\'), contacts()->addOne($contact), then contacts()->getOne($id)', function () use ($apiClient) {
    $made = $apiClient->contacts()->addOne((new ContactModel())->setFirstName('Ada')->setLastName('Lovelace'));
    $read = $apiClient->contacts()->getOne($made->getId());
    return ['id' => $made->getId(), 'name' => $read->getName(), 'first_name' => $read->getFirstName(), 'last_name' => $read->getLastName()];
});

// The sandbox clock moved past the access token's life; the client's own clock did not, so it sends the token, is
// answered 401, refreshes it (the refresh grant, form-encoded) and sends the call again.
$clock = new Client(['verify' => env('CA_FILE')]);
$clock->post(env('CONTROL_URL') . '/clock', ['json' => ['advance_seconds' => EXPIRED_AFTER]]);
call('the sandbox clock moved ' . EXPIRED_AFTER . ' s on, then leads()->getOne($id): 401, the token refreshed, the call sent again', function () use ($apiClient, $leadId, &$refreshed) {
    $lead = $apiClient->leads()->getOne($leadId);
    return ['id' => $lead->getId(), 'refreshed' => $refreshed !== null];
}, ['clock_advanced_seconds' => EXPIRED_AFTER]);

// The secrets, raw and as they appear form-encoded, and what stands for them in the record (the error details of a
// failed call included: they hold the last request whole).
$secrets = ['client_id' => env('CLIENT_ID'), 'client_secret' => env('CLIENT_SECRET'), 'code' => env('AUTH_CODE')];
if ($token !== null) {
    $secrets['access_token'] = $token->getToken();
    $secrets['refresh_token'] = (string)$token->getRefreshToken();
}
if ($refreshed !== null) {
    $secrets['access_token_2'] = $refreshed->getToken();
    $secrets['refresh_token_2'] = (string)$refreshed->getRefreshToken();
}
$mask = function (string $text) use ($secrets): string {
    foreach ($secrets as $name => $value) {
        if ($value === '') continue;
        $text = str_replace([$value, rawurlencode($value), urlencode($value)], '{{' . $name . '}}', $text);
    }
    return $text;
};

$requests = [];
foreach ($history as $exchange) {
    $request = $exchange['request'];
    $headers = [];
    foreach ($request->getHeaders() as $name => $values) {
        // The host is the sandbox's, port and all: the replay sends to its own.
        if (strcasecmp($name, 'Host') === 0) continue;
        $headers[$name] = implode(', ', $values);
    }
    $uri = $request->getUri();
    $body = (string)$request->getBody();
    $response = $exchange['response'];
    $requests[] = [
        'method' => $request->getMethod(),
        'path' => $uri->getPath(),
        'query' => $uri->getQuery(),
        'headers' => $headers,
        'body' => $body === '' ? null : $body,
        'status' => $response ? $response->getStatusCode() : null,
    ];
}

$out = [];
foreach ($calls as $c) {
    $entry = ['what' => $c['what']] + (isset($c['before']) ? ['before' => $c['before']] : [])
        + ['requests' => array_slice($requests, $c['from'], $c['to'] - $c['from'])];
    foreach (['client_read', 'error', 'info'] as $key) {
        if (array_key_exists($key, $c)) $entry[$key] = $c[$key];
    }
    $out[] = $entry;
}

echo $mask(json_encode([
    'client' => 'amocrm/amocrm-api-php ' . AmoCRMApiRequest::LIBRARY_VERSION,
    'php' => PHP_VERSION,
    'guzzle' => Client::MAJOR_VERSION,
    'timezone' => date_default_timezone_get(),
    'calls' => $out,
], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE)), "\n";
