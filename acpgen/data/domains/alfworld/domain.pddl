; alfred: the ALFWorld household domain as used by ACPBench-style records.
; One agent walks between locations that host receptacles, opens and closes them, picks up and
; puts down household objects, heats / cools / cleans / slices objects with appliances, toggles
; lamps, and finally validates one task; every validation ends the episode (deletes notvalidated).
; Household objects are plain `object`s, so any declared name can fill an `- object` parameter.
(define (domain alfred)
    (:requirements :action-costs :adl :typing)
    (:types
        agent location objectorreceptacle otype rtype - object
        receptacle - objectorreceptacle)
    (:constants
        butterknifetype knifetype sinktype - otype
        fridgetype microwavetype sinkbasintype - rtype)
    (:predicates
        (atlocation ?a - agent ?l - location)
        (cancontain ?rt - rtype ?ot - otype)
        (checked ?r - receptacle)
        (cleanable ?o - object)
        (closed ?r - receptacle)
        (coolable ?o - object)
        (handempty ?a - agent)
        (heatable ?o - object)
        (holds ?a - agent ?o - object)
        (inreceptacle ?o - object ?r - objectorreceptacle)
        (isclean ?o - object)
        (iscool ?o - object)
        (ishot ?o - object)
        (isoff ?o - object)
        (ison ?o - object)
        (issliced ?o - object)
        (istoggled ?o - object)
        (notopenable ?r - receptacle)
        (notvalidated)
        (objectatlocation ?o - object ?l - location)
        (objecttype ?o - object ?t - otype)
        (openable ?r - receptacle)
        (opened ?r - receptacle)
        (pickupable ?o - object)
        (receptacleatlocation ?r - receptacle ?l - location)
        (receptacletype ?r - receptacle ?t - rtype)
        (sliceable ?o - object)
        (toggleable ?o - object)
        (validatecleanandplace ?ot - otype ?rt - rtype)
        (validatecoolandplace ?ot - otype ?rt - rtype)
        (validateexamineinlight ?otogglet - otype ?ot - otype)
        (validateheatandplace ?ot - otype ?rt - rtype)
        (validatepickandplace ?ot - otype ?rt - rtype)
        (validatepicktwoandplace ?ot - otype ?rt - rtype))

    ; ---- moving, opening, closing -------------------------------------------------------
    (:action go_to_location
        :parameters (?a - agent ?lstart - location ?lend - location ?r - receptacle)
        :precondition (and (notvalidated) (atlocation ?a ?lstart) (receptacleatlocation ?r ?lend)
                           (not (= ?lstart ?lend)))
        :effect (and (atlocation ?a ?lend) (not (atlocation ?a ?lstart))))
    (:action open_receptacle
        :parameters (?a - agent ?l - location ?r - receptacle)
        :precondition (and (notvalidated) (openable ?r) (atlocation ?a ?l) (receptacleatlocation ?r ?l)
                           (closed ?r))
        :effect (and (opened ?r) (checked ?r) (not (closed ?r))))
    (:action close_receptacle
        :parameters (?a - agent ?l - location ?r - receptacle)
        :precondition (and (notvalidated) (openable ?r) (atlocation ?a ?l) (receptacleatlocation ?r ?l)
                           (opened ?r))
        :effect (and (closed ?r) (not (opened ?r))))

    ; ---- taking and placing objects -----------------------------------------------------
    (:action pickup_object_from_not_openable_receptacle
        :parameters (?a - agent ?l - location ?o - object ?r - receptacle)
        :precondition (and (notvalidated) (pickupable ?o) (atlocation ?a ?l) (receptacleatlocation ?r ?l)
                           (inreceptacle ?o ?r) (handempty ?a) (notopenable ?r))
        :effect (and (holds ?a ?o)
                     (not (inreceptacle ?o ?r)) (not (handempty ?a)) (not (objectatlocation ?o ?l))))
    (:action pickup_object_from_openable_receptacle
        :parameters (?a - agent ?l - location ?o - object ?r - receptacle)
        :precondition (and (notvalidated) (pickupable ?o) (atlocation ?a ?l) (receptacleatlocation ?r ?l)
                           (inreceptacle ?o ?r) (handempty ?a) (openable ?r) (opened ?r))
        :effect (and (holds ?a ?o)
                     (not (inreceptacle ?o ?r)) (not (handempty ?a)) (not (objectatlocation ?o ?l))))
    (:action put_object_on_not_openable_receptacle
        :parameters (?a - agent ?l - location ?o - object ?r - receptacle ?ot - otype ?rt - rtype)
        :precondition (and (notvalidated) (holds ?a ?o) (atlocation ?a ?l) (receptacleatlocation ?r ?l)
                           (notopenable ?r) (objecttype ?o ?ot) (receptacletype ?r ?rt) (cancontain ?rt ?ot))
        :effect (and (inreceptacle ?o ?r) (objectatlocation ?o ?l) (handempty ?a) (not (holds ?a ?o))))
    (:action put_object_in_openable_receptacle
        :parameters (?a - agent ?l - location ?o - object ?r - receptacle ?ot - otype ?rt - rtype)
        :precondition (and (notvalidated) (holds ?a ?o) (atlocation ?a ?l) (receptacleatlocation ?r ?l)
                           (openable ?r) (opened ?r) (objecttype ?o ?ot) (receptacletype ?r ?rt)
                           (cancontain ?rt ?ot))
        :effect (and (inreceptacle ?o ?r) (objectatlocation ?o ?l) (handempty ?a) (not (holds ?a ?o))))

    ; ---- changing objects: appliances, slicing, toggling --------------------------------
    (:action clean_object
        :parameters (?a - agent ?l - location ?r - receptacle ?o - object)
        :precondition (and (notvalidated) (cleanable ?o) (receptacletype ?r sinkbasintype)
                           (atlocation ?a ?l) (receptacleatlocation ?r ?l) (holds ?a ?o))
        :effect (isclean ?o))
    (:action heat_object
        :parameters (?a - agent ?l - location ?r - receptacle ?o - object)
        :precondition (and (notvalidated) (heatable ?o) (receptacletype ?r microwavetype)
                           (atlocation ?a ?l) (receptacleatlocation ?r ?l) (holds ?a ?o))
        :effect (and (ishot ?o) (not (iscool ?o))))
    (:action cool_object
        :parameters (?a - agent ?l - location ?r - receptacle ?o - object)
        :precondition (and (notvalidated) (coolable ?o) (receptacletype ?r fridgetype)
                           (atlocation ?a ?l) (receptacleatlocation ?r ?l) (holds ?a ?o))
        :effect (and (iscool ?o) (not (ishot ?o))))
    (:action slice_object
        :parameters (?a - agent ?l - location ?co - object ?ko - object)
        :precondition (and (notvalidated) (sliceable ?co)
                           (or (objecttype ?ko knifetype) (objecttype ?ko butterknifetype))
                           (atlocation ?a ?l) (objectatlocation ?co ?l) (holds ?a ?ko))
        :effect (issliced ?co))
    (:action toggle_object_on
        :parameters (?a - agent ?l - location ?o - object ?r - receptacle)
        :precondition (and (notvalidated) (toggleable ?o) (atlocation ?a ?l) (receptacleatlocation ?r ?l)
                           (inreceptacle ?o ?r) (isoff ?o))
        :effect (and (ison ?o) (istoggled ?o) (not (isoff ?o))))
    (:action toggle_object_off
        :parameters (?a - agent ?l - location ?o - object ?r - receptacle)
        :precondition (and (notvalidated) (toggleable ?o) (atlocation ?a ?l) (receptacleatlocation ?r ?l)
                           (inreceptacle ?o ?r) (ison ?o))
        :effect (and (isoff ?o) (istoggled ?o) (not (ison ?o))))

    ; ---- validating a task (each one ends the episode) ----------------------------------
    (:action validate_pick_and_place_in_receptacle
        :parameters (?o - object ?ot - otype ?r - receptacle ?rt - rtype)
        :precondition (and (notvalidated) (inreceptacle ?o ?r) (objecttype ?o ?ot) (receptacletype ?r ?rt))
        :effect (and (validatepickandplace ?ot ?rt) (not (notvalidated))))
    (:action validate_pick_two_and_place_in_receptacle
        :parameters (?o1 - object ?o2 - object ?ot - otype ?r - receptacle ?rt - rtype)
        :precondition (and (notvalidated) (inreceptacle ?o1 ?r) (inreceptacle ?o2 ?r)
                           (objecttype ?o1 ?ot) (objecttype ?o2 ?ot) (receptacletype ?r ?rt)
                           (not (= ?o1 ?o2)))
        :effect (and (validatepicktwoandplace ?ot ?rt) (not (notvalidated))))
    (:action validate_heat_and_place_in_receptacle
        :parameters (?o - object ?ot - otype ?r - receptacle ?rt - rtype)
        :precondition (and (notvalidated) (inreceptacle ?o ?r) (objecttype ?o ?ot) (receptacletype ?r ?rt)
                           (heatable ?o) (ishot ?o))
        :effect (and (validateheatandplace ?ot ?rt) (not (notvalidated))))
    (:action validate_cool_and_place_in_receptacle
        :parameters (?o - object ?ot - otype ?r - receptacle ?rt - rtype)
        :precondition (and (notvalidated) (inreceptacle ?o ?r) (objecttype ?o ?ot) (receptacletype ?r ?rt)
                           (coolable ?o) (iscool ?o))
        :effect (and (validatecoolandplace ?ot ?rt) (not (notvalidated))))
    (:action validate_clean_and_place_in_receptacle
        :parameters (?o - object ?ot - otype ?r - receptacle ?rt - rtype)
        :precondition (and (notvalidated) (inreceptacle ?o ?r) (objecttype ?o ?ot) (receptacletype ?r ?rt)
                           (cleanable ?o) (isclean ?o))
        :effect (and (validatecleanandplace ?ot ?rt) (not (notvalidated))))
    (:action validate_examine_in_light
        :parameters (?otoggle - object ?otogglet - otype ?o - object ?ot - otype ?r - receptacle
                     ?a - agent ?l - location)
        :precondition (and (notvalidated) (objecttype ?otoggle ?otogglet) (toggleable ?otoggle)
                           (istoggled ?otoggle) (inreceptacle ?otoggle ?r) (receptacleatlocation ?r ?l)
                           (holds ?a ?o) (objecttype ?o ?ot) (atlocation ?a ?l))
        :effect (and (validateexamineinlight ?otogglet ?ot) (not (notvalidated))))
)
